/**
 * Reading a saved world (a snapshot, a state file, PUT /sim/v1/snapshot) of this format or an
 * earlier one. Format world@1 kept its tries with two slot levels above the leaves; world@2 has
 * three (trie.ts). Every trie a world holds — the objects (namespace → name), the owner index
 * (owner → dependents) and the node agent's bookkeeping (pod uid → steps, IPs; plain records in
 * the oldest saves) — is rebuilt by
 * inserting its entries in key order, so an upgraded world is the world the same content makes.
 * Nothing is accepted before validateWorld.ts found it a world the simulation can run on.
 */
import { isObject } from '../core/json.ts';
import type { KubeObject } from '../api/meta.ts';
import { emptyTrie, trieSet, type Trie } from './trie.ts';
import type { World } from './world.ts';
import { worldProblem } from './validateWorld.ts';
import { storesAsWritten } from './objects.ts';

export const worldFormat = 'platform-sim/world@2';
const formatOne = 'platform-sim/world@1';

type Node = Readonly<Record<string, unknown>>;

/** The entries of a world@1 trie (root slot → branch slot → leaf key → value), in key order. */
function entriesOfTwoLevels(t: unknown): [string, unknown][] {
  const out: [string, unknown][] = [];
  if (!isObject(t)) return out;
  for (const branch of Object.values(t as Node)) {
    if (!isObject(branch)) continue;
    for (const leaf of Object.values(branch as Node)) {
      if (!isObject(leaf)) continue;
      for (const [k, v] of Object.entries(leaf as Node)) out.push([k, v]);
    }
  }
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function rebuilt<T>(t: unknown, value: (v: unknown) => T): Trie<T> {
  let out: Trie<T> = emptyTrie;
  for (const [k, v] of entriesOfTwoLevels(t)) out = trieSet(out, k, value(v));
  return out;
}

/** The entries of a plain record (the node agent's bookkeeping before it kept tries), in key order. */
function entriesOfRecord(r: unknown): [string, unknown][] {
  return isObject(r) ? Object.entries(r as Node).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : [];
}

function trieOf(entries: [string, unknown][]): Trie<unknown> {
  let out: Trie<unknown> = emptyTrie;
  for (const [k, v] of entries) out = trieSet(out, k, v);
  return out;
}

function upgradeFromOne(w: World): World {
  const objects: Record<string, Trie<Trie<KubeObject>>> = {};
  for (const [resource, byNamespace] of Object.entries(w.objects as unknown as Node)) {
    objects[resource] = rebuilt(byNamespace, (byName) => rebuilt(byName, (o) => o as KubeObject));
  }
  const owners = rebuilt(w.owners, (deps) => rebuilt(deps, () => true as const));
  const controllers: Record<string, unknown> = { ...w.controllers };
  const agent = controllers['node-agent'];
  // The node agent's steps and IPs by pod uid: two-level tries late in world@1, plain records
  // before (slot names are numbers, uids are not).
  if (isObject(agent)) {
    const tries = [agent['applied'], agent['ips']].every((t) => isObject(t) && Object.keys(t).every((k) => /^\d+$/.test(k)));
    const read = (t: unknown): Trie<unknown> => trieOf(tries ? entriesOfTwoLevels(t) : entriesOfRecord(t));
    controllers['node-agent'] = { ...agent, applied: read(agent['applied']), ips: read(agent['ips']) };
  }
  return { ...w, format: worldFormat, objects, owners, controllers };
}

export type SavedWorld = { readonly ok: true; readonly world: World } | { readonly ok: false; readonly problem: string };

/**
 * The world of a saved snapshot in this format, upgraded when it is an earlier one, once it is a
 * world the simulation can run on (validateWorld.ts); else the first problem. An earlier format
 * is upgraded first (the upgrade reads loosely: only its containers must be objects) and the
 * world it makes is checked.
 */
export function readSavedWorldChecked(value: unknown): SavedWorld {
  if (!isObject(value)) return { ok: false, problem: 'world: must be an object' };
  const format = value['format'];
  let world: unknown;
  if (format === worldFormat) world = value;
  else if (format === formatOne) {
    if (!isObject(value['objects'])) return { ok: false, problem: 'world.objects: must be an object' };
    world = upgradeFromOne(value as unknown as World);
  } else return { ok: false, problem: `world.format: must be "${worldFormat}" (or the earlier "${formatOne}"), not ${JSON.stringify(format) ?? 'nothing'}` };
  const problem = worldProblem(world);
  return problem === null ? { ok: true, world: storesAsWritten(world as World) } : { ok: false, problem };
}

/** As readSavedWorldChecked: the world, or null for what it does not accept. */
export function readSavedWorld(value: unknown): World | null {
  const read = readSavedWorldChecked(value);
  return read.ok ? read.world : null;
}
