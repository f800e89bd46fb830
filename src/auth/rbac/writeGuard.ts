/**
 * Where the escalation check (escalation.ts) sits among the answers of a write, as the request
 * handler (endpoints/handleResource.ts) asks it. The real check lives in the RBAC storage: after
 * the handler's own checks and admission, before the strategy. So a create or update is checked
 * before the store runs it — a grant beyond the writer's rights is a 403 even when the body is
 * also invalid (422) or stale (409) — but not where an earlier answer comes first:
 *
 * - create: a body namespace other than the URL's (400), a missing or terminating namespace
 *   (NamespaceLifecycle admission, 404/403);
 * - update: a body name or namespace other than the URL's (400), a missing object (404), a uid
 *   precondition that fails (409, checked before the storage transforms the object).
 *
 * A patch or apply is checked on the object it produced, as the storage's wrapped
 * UpdatedObject does: after the patch applied and decoded (400 and 422 of the patch itself, a name
 * other than the URL's), before the resourceVersion check (409) and validation (422).
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import type { UserInfo } from '../../api/userInfo.ts';
import type { ApiError } from '../../core/status.ts';
import type { ResourceType } from '../../registry/types.ts';
import { getObject } from '../../store/objects.ts';
import type { World } from '../../store/world.ts';
import { escalationRefusal, type RbacWrite } from './escalation.ts';

const guarded: Readonly<Record<string, RbacWrite['resource']>> = {
  'rbac/roles': 'roles',
  'rbac/clusterroles': 'clusterroles',
  'rbac/rolebindings': 'rolebindings',
  'rbac/clusterrolebindings': 'clusterrolebindings',
};

/** The resource whose storage checks escalation, or undefined for every other kind. */
function guardedResource(rt: ResourceType, subresource: string): RbacWrite['resource'] | undefined {
  return subresource === '' && Object.hasOwn(guarded, rt.id) ? guarded[rt.id] : undefined;
}

const differs = (given: string | undefined, expected: string): boolean => given !== undefined && given !== '' && given !== expected;

function namespaceOpen(world: World, namespace: string): boolean {
  const ns = getObject(world, 'core/namespaces', '', namespace);
  return ns !== undefined && ns.metadata.deletionTimestamp === undefined;
}

export interface WriteRequest {
  readonly rt: ResourceType;
  readonly subresource: string;
  /** The URL's namespace and name ("" where the URL has none). */
  readonly namespace: string;
  readonly name: string;
}

/**
 * A POST or PUT body, or the object a PATCH or apply produced (the store calls back through
 * `OpContext.storageGuard`): the refusal to answer before the store checks and runs the write,
 * or null.
 */
export function refuseRbacWrite(world: World, names: Names, user: UserInfo, req: WriteRequest, verb: 'create' | 'update', body: KubeObject): ApiError | null {
  const resource = guardedResource(req.rt, req.subresource);
  if (resource === undefined) return null;
  const namespaced = req.rt.namespaced;
  if (namespaced && differs(body.metadata.namespace, req.namespace)) return null;
  if (verb === 'create') {
    if (namespaced && !namespaceOpen(world, req.namespace)) return null;
    return escalationRefusal(world, names, user, { resource, namespace: req.namespace, requestName: '', obj: body, old: undefined });
  }
  if ((body.metadata.name ?? '') !== req.name) return null;
  const old = getObject(world, req.rt.id, req.namespace, req.name);
  if (old === undefined || differs(body.metadata.uid, old.metadata.uid ?? '')) return null;
  return escalationRefusal(world, names, user, { resource, namespace: req.namespace, requestName: req.name, obj: body, old });
}
