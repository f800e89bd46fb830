/**
 * A bootstrapped world made once, ahead of time, and instantiated for any seed and start: the
 * first simulation of a process would otherwise run the whole create path for the namespaces and
 * the RBAC policy with a cold JIT (≈ 15 ms). What a seed and a start change in that world is
 * known and checked when the template is made: the uids (the `uid` stream's draws, in order), the
 * timestamps (all at the start), `now`, the next compaction and the stream state. A world whose
 * bootstrap uses anything else of them (another stream, a time not at the start) gets no
 * template and is bootstrapped as before. A test instantiates templates for other seeds, starts
 * and names modes and compares them byte for byte with bootstrapping; the shipped templates
 * (bootstrapTemplates.json) are checked to be what `makeTemplate` makes today.
 */
import { formatInstant, type Instant } from '../core/duration.ts';
import { canonicalJson } from '../core/json.ts';
import type { ResourceTable } from '../registry/index.ts';
import { newUid } from '../store/ids.ts';
import { worldWith, type World } from '../store/world.ts';
import { storesAsWritten } from '../store/objects.ts';
import { bootstrapWorld } from './bootstrap.ts';
import type { ResolvedOptions, SimulationOptions } from './options.ts';

export interface BootstrapTemplate {
  /** The settings it stands for (templateKey). */
  readonly key: string;
  readonly seed: string;
  readonly start: Instant;
  /** The uids it holds, in the order they were drawn. */
  readonly uids: readonly string[];
  /** The world as JSON. */
  readonly world: string;
}

const uidPattern = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g;
const timePattern = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;

/** What besides the seed and start decides the bootstrapped world; null: no template (fault rules). */
export function templateKey(o: ResolvedOptions, table: ResourceTable): string | null {
  return o.faults.length > 0 ? null : canonicalJson([o.config, table.names]);
}

/** `count` uids drawn from a seed's `uid` stream, and the stream state after them. */
function drawUids(seed: string, count: number): { uids: string[]; rng: World['rng'] } {
  let world = { seed, rng: {}, revision: 0 } as unknown as World;
  const uids: string[] = [];
  for (let i = 0; i < count; i++) {
    const drawn = newUid(world, false);
    uids.push(drawn.uid);
    world = drawn.world;
  }
  return { uids, rng: world.rng };
}

/** The template of a bootstrap with these options, or null when its world depends on more than it knows how to change. */
export function makeTemplate(o: ResolvedOptions, table: ResourceTable): BootstrapTemplate | null {
  const key = templateKey(o, table);
  if (key === null) return null;
  const world = bootstrapWorld(o, table);
  const text = JSON.stringify(world);
  const found = new Set(text.match(uidPattern) ?? []);
  const { uids, rng } = drawUids(o.seed, found.size);
  const times = new Set(text.match(timePattern) ?? []);
  const knows =
    uids.every((u) => found.has(u)) &&
    canonicalJson(world.rng) === canonicalJson(rng) &&
    [...times].every((t) => t === formatInstant(o.start)) &&
    world.now === o.start &&
    // The seed itself only as the world's seed (set, not replaced, when instantiated).
    text.split(JSON.stringify(o.seed)).length === 2;
  return knows ? { key, seed: o.seed, start: o.start, uids, world: text } : null;
}

/** The bootstrapped world of `o` from a template for the same settings, or null. */
export function fromTemplate(t: BootstrapTemplate, o: ResolvedOptions, table: ResourceTable): World | null {
  if (templateKey(o, table) !== t.key) return null;
  const { uids, rng } = drawUids(o.seed, t.uids.length);
  const uidFor = new Map(t.uids.map((u, i) => [u, uids[i]!]));
  const text = t.world.replace(uidPattern, (u) => uidFor.get(u) ?? u).replaceAll(`"${formatInstant(t.start)}"`, `"${formatInstant(o.start)}"`);
  const parsed = storesAsWritten(JSON.parse(text) as World);
  return worldWith(parsed, { seed: o.seed, now: o.start, nextCompactionAt: parsed.nextCompactionAt - t.start + o.start, rng });
}

/** The settings templates are shipped for (bootstrapTemplates.json): both names modes, default options otherwise. */
export const shippedTemplateOptions: readonly SimulationOptions[] = [
  { seed: 'bootstrap-template', startTime: '2003-04-05T06:07:08Z' },
  { seed: 'bootstrap-template', startTime: '2003-04-05T06:07:08Z', groupDomain: 'k8s.io' },
];
