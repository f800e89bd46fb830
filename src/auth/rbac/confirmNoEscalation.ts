/**
 * ConfirmNoEscalation of pkg/registry/rbac/validation/rule.go: the rules a write grants must be
 * covered by the rules the writer holds in the request's namespace ("" = ClusterRoleBindings
 * only). Bindings whose role is missing leave the writer's rules incomplete: the check goes on
 * with what was found, and a refusal names them as `; resolution errors: [<aggregate>]`.
 */
import type { Names } from '../../api/names.ts';
import { goQuote, goQuoteList } from '../../core/goFormat.ts';
import type { World } from '../../store/world.ts';
import { aggregate } from './aggregate.ts';
import type { Attributes } from './attributes.ts';
import { uncovered, type PolicyRule } from './covers.ts';
import { describeMissing } from './missingRights.ts';
import { ownerRules } from './ownerRules.ts';

/** The refusal's message, or null when the writer holds everything it grants. */
export function escalationMessage(world: World, names: Names, user: Attributes['user'], namespace: string, granted: readonly PolicyRule[]): string | null {
  const held = ownerRules(world, names, user, namespace);
  const missing = uncovered(held.rules, granted);
  if (missing.length === 0) return null;
  const msg = `user ${goQuote(user.username)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${describeMissing(missing)}`;
  // `%v` of a []error holding the one aggregate RulesFor returned.
  return held.errors.length === 0 ? msg : `${msg}; resolution errors: [${aggregate(held.errors)}]`;
}
