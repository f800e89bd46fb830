/**
 * The world: everything a simulated cluster is, as plain JSON data. Stored objects live in a
 * nested map: resource → namespace → name (both levels persistent tries, see trie.ts), so a
 * one-object write copies only small containers. `revision` is the single resourceVersion
 * counter of the whole world, as etcd's revision. Nothing here reads a clock or a random source.
 */
import type { Instant } from '../core/duration.ts';
import type { RngStreams } from '../ports/rng.ts';
import type { KubeObject } from '../api/meta.ts';
import { emptyTrie, type Trie } from './trie.ts';
import { emptyLog, type Log } from './history.ts';
import type { OwnerIndex } from './ownerIndex.ts';

export type GroupDomain = 'platform.io' | 'k8s.io';

/** Settings fixed for the life of a world (a snapshot carries them). */
export interface WorldConfig {
  readonly groupDomain: GroupDomain;
  readonly compactionIntervalMs: number;
  readonly nodeAgent: boolean;
  readonly podReadyAfterMs: number;
  /**
   * The order controllers run in within a settle round: `fixed` (the list's order), or `seeded`
   * (drawn from the seed each round, so tests explore interleavings and replay any of them).
   * Absent means fixed.
   */
  readonly schedule?: 'fixed' | 'seeded';
}

export interface World {
  readonly format: 'platform-sim/world@2';
  readonly seed: string;
  readonly config: WorldConfig;
  readonly now: Instant;
  readonly revision: number;
  /** History at or below this revision is compacted away (410 for older starts). */
  readonly compactedRevision: number;
  /** Revision current at the previous compaction tick: the next tick compacts to it. */
  readonly revisionAtLastCompaction: number;
  readonly nextCompactionAt: Instant;
  readonly rng: RngStreams;
  /** resource id (`core/serviceaccounts`) → namespace (`''` when cluster-scoped) → name → object. */
  readonly objects: Readonly<Record<string, Trie<Trie<KubeObject>>>>;
  readonly log: Log;
  /** Owner uid → dependents, for the garbage collector. */
  readonly owners: OwnerIndex;
  /** Per-controller bookkeeping (cursors, queues), plain data. */
  readonly controllers: Readonly<Record<string, unknown>>;
  /** Installed fault rules and how often each fired (sim/faults.ts); absent means none. */
  readonly faults?: readonly { readonly rule: unknown; readonly fired: number }[];
  /**
   * Work items whose last attempt the API refused, by `<controller>/<key>`: retried with
   * exponential backoff (controllers/retries.ts); absent means none.
   */
  readonly retries?: Readonly<Record<string, Retry>>;
}

/** A refused work item: how often it failed in a row, and when it may be tried again. */
export interface Retry {
  readonly attempts: number;
  readonly notBefore: Instant;
}

export function emptyWorld(seed: string, start: Instant, config: WorldConfig): World {
  return {
    format: 'platform-sim/world@2',
    seed,
    config,
    now: start,
    revision: 1,
    compactedRevision: 0,
    revisionAtLastCompaction: 1,
    nextCompactionAt: start + config.compactionIntervalMs,
    rng: {},
    objects: {},
    log: emptyLog,
    owners: emptyTrie,
    controllers: {},
  };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A copy of `world` to change some fields of, built field by field in one order (the order of
 * `emptyWorld`, then the optional parts present). Every world made so has the same hidden class;
 * worlds spread from one another (`{ ...world, revision }`) came in several, and V8 copies an
 * object at a site that has seen several classes on its slow path: at the commit of every write,
 * about a microsecond and a half of a forty-microsecond PATCH.
 */
export function copyWorld(world: World): Mutable<World> {
  const out: Mutable<World> = {
    format: world.format,
    seed: world.seed,
    config: world.config,
    now: world.now,
    revision: world.revision,
    compactedRevision: world.compactedRevision,
    revisionAtLastCompaction: world.revisionAtLastCompaction,
    nextCompactionAt: world.nextCompactionAt,
    rng: world.rng,
    objects: world.objects,
    log: world.log,
    owners: world.owners,
    controllers: world.controllers,
  };
  if (world.faults !== undefined) out.faults = world.faults;
  if (world.retries !== undefined) out.retries = world.retries;
  return out;
}

/** `world` with `parts` replaced (a copy as `copyWorld` makes). */
export function worldWith(world: World, parts: Partial<World>): World {
  return Object.assign(copyWorld(world), parts);
}

export function namespacesOf(world: World, resourceId: string): Trie<Trie<KubeObject>> {
  return world.objects[resourceId] ?? emptyTrie;
}
