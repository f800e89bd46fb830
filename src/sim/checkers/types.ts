/**
 * An invariant checker looks at the world after a step (and the world before it) and returns
 * the violations it sees, as sentences. Checkers live apart from the code they check; tests and
 * explorations run all of them after every step.
 *
 * `checkStep`, where a checker has it, is the same verdict for a step whose world before passed:
 * it looks only at what the step changed (the log entries it appended, the objects it stored), so a
 * step costs its writes, not the store. The simulation uses it from one checked world to the next
 * (`checkInvariants`), and `check` for a world it did not see pass (its first, a restored snapshot).
 */
import type { World } from '../../store/world.ts';

export interface Checker {
  readonly name: string;
  check(before: World | null, after: World): string[];
  /** As `check(before, after)`, trusting that `before` passed: only what the step changed is looked at. */
  checkStep?(before: World, after: World): string[];
}
