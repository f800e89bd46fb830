/** Virtual time never moves backwards. */
import type { Checker } from './types.ts';

export const timeMovesForward: Checker = {
  name: 'time-moves-forward',
  check(before, after) {
    return before !== null && after.now < before.now ? [`time went back from ${before.now} to ${after.now}`] : [];
  },
};
