/**
 * The NamespaceLifecycle admission rule: content may be created only in a namespace that exists
 * (404 otherwise) and is not terminating (403 with the real message).
 */
import { errors, type ApiError } from '../../core/status.ts';
import { getObject } from '../objects.ts';
import type { OpContext } from './context.ts';

export const namespacesResource = 'core/namespaces';

export function checkNamespaceOpen(ctx: OpContext, namespace: string, name: string): ApiError | null {
  const ns = getObject(ctx.world, namespacesResource, '', namespace);
  if (ns === undefined) return errors.notFound({ group: '', resource: 'namespaces' }, namespace);
  if (ns.metadata.deletionTimestamp !== undefined) {
    const e = errors.forbidden(
      { group: ctx.rt.group, resource: ctx.rt.resource },
      name,
      `unable to create new content in namespace ${namespace} because it is being terminated`,
    );
    // As the admission plugin: a cause clients can test for (NamespaceTerminatingCause).
    const cause = { reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' };
    return { ...e, status: { ...e.status, details: { ...e.status.details, causes: [...(e.status.details?.causes ?? []), cause] } } };
  }
  return null;
}
