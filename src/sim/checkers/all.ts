/** Every checker, and a helper that runs them all. */
import type { World } from '../../store/world.ts';
import { revisionsIncrease } from './revisionsIncrease.ts';
import { storeKeysMatch } from './storeKeysMatch.ts';
import { timeMovesForward } from './timeMovesForward.ts';
import type { Checker } from './types.ts';
import { csrDecisions } from './csrDecisions.ts';

export const checkers: readonly Checker[] = [revisionsIncrease, timeMovesForward, storeKeysMatch, csrDecisions];

export function checkAll(before: World | null, after: World): string[] {
  return checkers.flatMap((c) => c.check(before, after).map((p) => `${c.name}: ${p}`));
}
