/**
 * A controller's write as the API server's fault rules see it: the request its client would send
 * (verb, resource and subresource, namespace and name as kube-apiserver's RequestInfo reads them
 * from the URL), made as the controller's user. The object concerned by `when` is the object
 * created, or the stored object the write names.
 */
import type { RequestAttributes } from '../auth/requestInfo.ts';
import { assert } from '../core/assert.ts';
import { getObject } from '../store/objects.ts';
import type { World } from '../store/world.ts';
import type { ResourceTable } from '../registry/index.ts';
import type { Actor, Intent } from '../controllers/types.ts';
import { injectFault, type FaultOutcome } from './faults.ts';

type Write = Exclude<Intent, { readonly type: 'remember' }>;

function target(intent: Write): { namespace: string; name: string; subresource: string } {
  switch (intent.type) {
    case 'create': {
      // A create posts to the collection (no name in the URL), a binding to the pod's subresource.
      const subresource = intent.subresource ?? '';
      return { namespace: intent.object.metadata.namespace ?? '', name: subresource === '' ? '' : (intent.object.metadata.name ?? ''), subresource };
    }
    case 'update':
      return { namespace: intent.object.metadata.namespace ?? '', name: intent.object.metadata.name ?? '', subresource: intent.subresource };
    case 'delete':
      return { namespace: intent.namespace, name: intent.name, subresource: '' };
  }
}

function attributesOf(table: ResourceTable, intent: Write): RequestAttributes {
  const rt = table.byId(intent.resource);
  assert(rt !== undefined, `an intent names the unknown resource ${intent.resource}`);
  const t = target(intent);
  // `namespaces/<name>` is read as the namespace itself, as RequestInfo does.
  const namespace = rt.group === '' && rt.resource === 'namespaces' ? t.name : t.namespace;
  const prefix = rt.group === '' ? `/api/${rt.version}` : `/apis/${rt.group}/${rt.version}`;
  const path = [prefix, ...(t.namespace === '' ? [] : ['namespaces', t.namespace]), rt.resource, t.name, t.subresource].filter((p) => p !== '').join('/');
  return { resourceRequest: true, verb: intent.type, apiGroup: rt.group, apiVersion: rt.version, namespace, resource: rt.resource, subresource: t.subresource, name: t.name, path };
}

/** The fault rules' verdict on a controller's write (the world unchanged when there are no rules). */
export function faultOfWrite(world: World, table: ResourceTable, controller: string, actor: Actor, intent: Write): FaultOutcome {
  if ((world.faults ?? []).length === 0) return { world, error: null };
  const attrs = attributesOf(table, intent);
  const t = target(intent);
  const object = (): unknown => (intent.type === 'create' && t.subresource === '' ? intent.object : getObject(world, intent.resource, t.namespace, t.name));
  return injectFault(world, { attrs, user: actor.user.username, controller, object });
}
