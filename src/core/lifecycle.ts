/**
 * Lifecycles as data (h11's state machines): an object's phases and the moves between them, each
 * with who makes it, through which door, what records it on the object and what sets it off. The
 * code that decides or checks a move reads the table; the documentation diagrams are rendered
 * from it (lifecycleDiagram.ts), so prose, code and pictures cannot drift apart.
 *
 * This file knows no resource kind: the tables live beside the code they govern
 * (registry/certificates/csr/lifecycle.ts, controllers/node-agent/podLifecycle.ts, …).
 */

export interface PhaseInfo<P extends string> {
  readonly name: P;
  readonly means: string;
}

/** One move of the table: the fields every lifecycle has; tables add their own typed fields. */
export interface Move<P extends string> {
  readonly from: readonly P[];
  readonly to: P;
  /** Who makes the move: a user, a controller's name, the clock. */
  readonly actor: string;
  /** The door: an HTTP verb, a subresource, or `time`. */
  readonly via: string;
  /** What records the move on the object (a condition, a field, the object's absence). */
  readonly marks: string;
  /** What sets the move off, in a few words. */
  readonly when: string;
  /** The few words on the diagram's arrow. */
  readonly label: string;
}

/** Phases drawn together (a composite state), so that a move from all of them is one arrow. */
export interface PhaseGroup<P extends string> {
  readonly name: string;
  readonly phases: readonly P[];
}

export interface Lifecycle<P extends string, M extends Move<P> = Move<P>> {
  readonly name: string;
  readonly phases: readonly PhaseInfo<P>[];
  readonly groups?: readonly PhaseGroup<P>[];
  /** The phase that means "there is no object": where creation starts and deletion ends. */
  readonly outside: P;
  readonly moves: readonly M[];
}

/** The moves that lead from `from` to `to` (possibly none). */
export function movesBetween<P extends string, M extends Move<P>>(lifecycle: Lifecycle<P, M>, from: P, to: P): M[] {
  return lifecycle.moves.filter((m) => m.to === to && m.from.includes(from));
}

/**
 * Every phase reachable from `from` in zero or more moves (breadth first, bounded by the phases).
 * Reaching the outside phase ends an object, and what is created next is another object, so the
 * search does not go on from there — unless the table follows a slot rather than an object
 * (`throughOutside`, as a StatefulSet ordinal that is scaled away and back).
 */
export function reachableFrom<P extends string>(lifecycle: Lifecycle<P, Move<P>>, from: P, throughOutside = false): ReadonlySet<P> {
  const seen = new Set<P>([from]);
  const queue: P[] = [from];
  for (let i = 0; i < queue.length && i <= lifecycle.phases.length; i++) {
    if (i > 0 && queue[i] === lifecycle.outside && !throughOutside) continue;
    for (const m of lifecycle.moves) {
      if (m.from.includes(queue[i]!) && !seen.has(m.to)) {
        seen.add(m.to);
        queue.push(m.to);
      }
    }
  }
  return seen;
}

/** Worked out once per lifecycle table and actor: controllers ask for every object they visit. */
const actedOn = new WeakMap<object, Map<string, ReadonlySet<string>>>();

/** The phases an actor moves an object out of (where it has work to do). */
export function phasesActedOnBy<P extends string>(lifecycle: Lifecycle<P, Move<P>>, actor: string): ReadonlySet<P> {
  let byActor = actedOn.get(lifecycle);
  if (byActor === undefined) actedOn.set(lifecycle, (byActor = new Map()));
  let phases = byActor.get(actor);
  if (phases === undefined) byActor.set(actor, (phases = new Set(lifecycle.moves.filter((m) => m.actor === actor).flatMap((m) => m.from))));
  return phases as ReadonlySet<P>;
}
