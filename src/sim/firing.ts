/**
 * How a rule kept in the world fires on an occurrence (a request, a read): rules are tried in
 * order; a spent rule (`times`) or one that does not match is passed by; a rule still letting
 * occurrences through (`after`) counts one more and the next rule is tried; a `probability` draw
 * (from the world's rng, on the kind's own stream) moves the rng whether or not it fires; the rule
 * that fires counts one more firing, and later rules do not see the occurrence. The counts and
 * draws are part of the world, so a run with faults replays exactly.
 */
import { drawInts } from '../ports/rng.ts';
import { worldWith, type World } from '../store/world.ts';
import { kindOfRule, type FaultKind, type FaultRule, type FaultState } from './faultRules.ts';

export interface Firing<R> {
  /** The world with the counts and draws moved on. */
  readonly world: World;
  /** The rule that fired, or null. */
  readonly fired: R | null;
}

function withState(world: World, states: readonly FaultState[], i: number, next: FaultState): World {
  return worldWith(world, { faults: states.map((s, j) => (j === i ? next : s)) });
}

/** The first rule of `kind` that fires for an occurrence `matches` selects. */
export function firstFiring<R extends FaultRule>(world: World, kind: FaultKind, stream: string, matches: (rule: R) => boolean): Firing<R> {
  let w = world;
  const count = (world.faults ?? []).length;
  for (let i = 0; i < count; i++) {
    const states = w.faults as readonly FaultState[];
    const state = states[i]!;
    if (kindOfRule(state.rule) !== kind) continue;
    const rule = state.rule as R;
    if (rule.times !== undefined && state.fired >= rule.times) continue;
    if (!matches(rule)) continue;
    const passed = state.passed ?? 0;
    if (rule.after !== undefined && passed < rule.after) {
      w = withState(w, states, i, { ...state, passed: passed + 1 });
      continue;
    }
    if (rule.probability !== undefined && rule.probability < 1) {
      const drawn = drawInts(w.seed, w.rng, stream, 1, 1_000_000);
      w = worldWith(w, { rng: drawn.streams });
      if (drawn.values[0]! >= rule.probability * 1_000_000) continue;
    }
    return { world: withState(w, states, i, { ...state, fired: state.fired + 1 }), fired: rule };
  }
  return { world: w, fired: null };
}
