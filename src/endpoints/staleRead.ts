/**
 * How a staleRead fault reaches the read handlers. The simulation decides (sim/staleReads.ts: the
 * rules, their counts, the seeded draws — the API may not know fault rules) and hands the decision
 * in as `ApiEnv.staleReads`, as it hands in `faults` for error rules; the handler then reads at the
 * revision decided, as a lagging watch cache would answer. Without the hook every read is fresh.
 * Only reads that may be served from the cache ask: a GET, or a LIST that is not exact.
 */
import type { KubeObject } from '../api/meta.ts';
import type { World } from '../store/world.ts';
import type { ApiEnv } from './env.ts';

/** A read that may be answered stale, as the rules select it. */
export interface StaleReadRequest {
  readonly verb: 'get' | 'list';
  /** `pods`, or `pods/status` for a subresource. */
  readonly resource: string;
  /** `''` for cluster-scoped objects and for lists across all namespaces. */
  readonly namespace: string;
  /** `''` for a list. */
  readonly name: string;
  readonly user: string;
  /** What `when` looks at: the GET's object at the current revision (undefined when absent); none for a list. */
  readonly object?: () => KubeObject | undefined;
}

/** The world after the decision (counts and draws move it) and the revision to answer at, or null: fresh. */
export type StaleReadDecision = (world: World, read: StaleReadRequest) => { readonly world: World; readonly at: number | null };

/** The decision for one read: the world after it and the revision to read at (absent: fresh). */
export function staleReadAt(world: World, env: ApiEnv, read: StaleReadRequest): { readonly world: World; readonly at?: number } {
  if (env.staleReads === undefined) return { world };
  const decided = env.staleReads(world, read);
  return decided.at === null ? { world: decided.world } : { world: decided.world, at: decided.at };
}
