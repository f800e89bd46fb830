/**
 * The escalation check of the RBAC storage (pkg/registry/rbac/{role,clusterrole,rolebinding,
 * clusterrolebinding}/policybased/storage.go and escalation_check.go): writing a role or binding
 * must not grant what the writer does not hold. It runs after authorization (the writer may
 * already create or update the object) and before the strategy validates, on create, update,
 * patch and apply, dry runs included.
 *
 * - Members of `system:masters` skip it (EscalationAllowed; the authorizer would allow them
 *   `escalate` and `bind` anyway).
 * - An update changing only owner references or finalizers skips it (IsOnlyMutatingGCFields).
 * - Role / ClusterRole: allowed with the `escalate` verb on the written role (name as in the
 *   URL: "" on create), else every rule must be held in the URL's namespace; an aggregationRule
 *   (set, or on the stored ClusterRole) needs full authority, `*` on everything.
 * - RoleBinding / ClusterRoleBinding: allowed with `bind` on the referenced role (in the
 *   binding's namespace, name from roleRef, so resourceNames may name it); else the role must
 *   exist (404 otherwise) and its rules be held in the binding's namespace.
 *
 * The refusal is the storage's 403: `<resource>.<group> "<name>" is forbidden: <reason>`, with
 * the body's name ("" under generateName: names are generated after the check).
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import { errors, type ApiError } from '../../core/status.ts';
import { hasAggregationRule, roleRefOf } from '../../registry/rbac/accessors.ts';
import { withBindingDefaults } from '../../registry/rbac/defaults.ts';
import { isOnlyMutatingGCFields } from '../../registry/rbac/gcFields.ts';
import type { World } from '../../store/world.ts';
import type { Attributes } from './attributes.ts';
import { authorize } from './authorize.ts';
import { escalationMessage } from './confirmNoEscalation.ts';
import { policyRule, type PolicyRule } from './covers.ts';
import { roleReferenceRules } from './ownerRules.ts';

/** One write of an RBAC object as the storage sees it. */
export interface RbacWrite {
  readonly resource: 'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings';
  /** The URL's namespace ("" for the cluster-scoped kinds). */
  readonly namespace: string;
  /** The URL's name ("" on create). */
  readonly requestName: string;
  readonly obj: KubeObject;
  /** The stored object of an update (none on create, or apply creating). */
  readonly old: KubeObject | undefined;
}

const fullAuthority: readonly PolicyRule[] = [
  policyRule({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }),
  policyRule({ verbs: ['*'], nonResourceURLs: ['*'] }),
];

type User = Attributes['user'];

function allows(world: World, names: Names, user: User, verb: string, resource: string, namespace: string, name: string): boolean {
  return authorize(world, names, { user, verb, resourceRequest: true, apiGroup: names.rbacGroup, resource, subresource: '', namespace, name, path: '' }).allowed;
}

function checkRole(world: World, names: Names, user: User, w: RbacWrite, name: string): ApiError | null {
  // RoleEscalationAuthorized
  if (allows(world, names, user, 'escalate', w.resource, w.namespace, w.requestName)) return null;
  const gr = { group: names.rbacGroup, resource: w.resource };
  const rules = Array.isArray(w.obj['rules']) ? w.obj['rules'].map(policyRule) : [];
  const refused = escalationMessage(world, names, user, w.namespace, rules);
  if (refused !== null) return errors.forbidden(gr, name, refused);
  if (w.resource !== 'clusterroles') return null;
  // An aggregationRule can gather anything, and dropping one can keep a role from tightening.
  if (!hasAggregationRule(w.obj) && (w.old === undefined || !hasAggregationRule(w.old))) return null;
  if (escalationMessage(world, names, user, w.namespace, fullAuthority) === null) return null;
  return errors.forbidden(gr, name, 'must have cluster-admin privileges to use the aggregationRule');
}

function checkBinding(world: World, names: Names, user: User, w: RbacWrite, name: string): ApiError | null {
  const ref = roleRefOf(w.obj);
  // A kind this binding may not name is validation's 422 here (Kubernetes: an error resolving
  // it, a 500 for an unknown kind; docs/divergences.md): nothing can be granted through it.
  const kinds = w.resource === 'rolebindings' ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind)) return null;
  // BindingAuthorized: `bind` on the role, asked in the binding's namespace.
  const target = ref.kind === 'Role' ? 'roles' : 'clusterroles';
  if (authorize(world, names, { user, verb: 'bind', resourceRequest: true, apiGroup: ref.apiGroup, resource: target, subresource: '', namespace: w.namespace, name: ref.name, path: '' }).allowed) return null;
  const resolved = roleReferenceRules(world, names, ref, w.namespace);
  if (!resolved.ok) return resolved.error;
  const refused = escalationMessage(world, names, user, w.namespace, resolved.rules);
  return refused === null ? null : errors.forbidden({ group: names.rbacGroup, resource: w.resource }, name, refused);
}

/** The refusal of an RBAC write, or null when the storage lets it through. */
export function escalationRefusal(world: World, names: Names, user: User, write: RbacWrite): ApiError | null {
  if (user.groups.includes('system:masters')) return null;
  const role = write.resource === 'roles' || write.resource === 'clusterroles';
  // Decoding defaults a binding's groups in Kubernetes, before the storage sees the object.
  const w = role ? write : { ...write, obj: withBindingDefaults(write.obj, names.rbacGroup) };
  if (w.old !== undefined && isOnlyMutatingGCFields(w.obj, w.old)) return null;
  const name = w.obj.metadata.name ?? '';
  return role ? checkRole(world, names, user, w, name) : checkBinding(world, names, user, w, name);
}
