/**
 * An invariant checker looks at the world after a step (and the world before it) and returns
 * the violations it sees, as sentences. Checkers live apart from the code they check; tests and
 * explorations run all of them after every step.
 */
import type { World } from '../../store/world.ts';

export interface Checker {
  readonly name: string;
  check(before: World | null, after: World): string[];
}
