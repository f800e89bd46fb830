/** Every checker, and a helper that runs them all. */
import type { World } from '../../store/world.ts';
import { revisionsIncrease } from './revisionsIncrease.ts';
import { storeKeysMatch } from './storeKeysMatch.ts';
import { timeMovesForward } from './timeMovesForward.ts';
import type { Checker } from './types.ts';
import { csrDecisions } from './csrDecisions.ts';
import { statefulSetClaimVolumes } from './statefulSetClaimVolumes.ts';
import { statefulSetOrderedCreation } from './statefulSetOrderedCreation.ts';
import { statefulSetPodIdentity } from './statefulSetPodIdentity.ts';
import { statefulSetPodRevisions } from './statefulSetPodRevisions.ts';
import { statefulSetStatusCounts } from './statefulSetStatusCounts.ts';
import { statefulSetUpdateBudget } from './statefulSetUpdateBudget.ts';

export const checkers: readonly Checker[] = [
  revisionsIncrease,
  timeMovesForward,
  storeKeysMatch,
  csrDecisions,
  statefulSetOrderedCreation,
  statefulSetPodIdentity,
  statefulSetClaimVolumes,
  statefulSetPodRevisions,
  statefulSetStatusCounts,
  statefulSetUpdateBudget,
];

export function checkAll(before: World | null, after: World): string[] {
  return checkers.flatMap((c) => c.check(before, after).map((p) => `${c.name}: ${p}`));
}

/**
 * As `checkAll(before, after)` for a step from a world that passed: each checker's `checkStep`
 * where it has one (what the step changed, not the whole world), else its `check`.
 */
export function checkStep(before: World, after: World): string[] {
  return checkers.flatMap((c) => (c.checkStep === undefined ? c.check(before, after) : c.checkStep(before, after)).map((p) => `${c.name}: ${p}`));
}
