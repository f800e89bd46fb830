/**
 * Mutations of a valid world snapshot for the snapshot fuzzer (snapshot.fuzz.test.ts): a few
 * edits, each at a place drawn from the snapshot itself — anywhere, or among the parts a
 * crafted world breaks first (the counters and revisions, the tries' slot and leaf keys, stored
 * objects and their metadata, the log, the controllers' memories, the format strings). An edit
 * deletes a key, sets a value of another type (numbers JSON only writes as text: `1e400` parses
 * to Infinity), swaps two values, copies one value over another (an object into another slot,
 * namespace or kind), adds a key (`__proto__`, `constructor`, a slot name out of range, a name
 * taken elsewhere) or renames one (a list item moves to the end). Places are paths into the
 * pristine snapshot; one an earlier edit removed is skipped.
 */
import fc from 'fast-check';
import { prototypeNames, type Json } from './bodies.ts';

type Path = readonly (string | number)[];
type JsonObject = { [key: string]: Json };

/** Every path of a JSON value, containers and leaves, in document order. */
function pathsOf(v: Json, at: (string | number)[] = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, [...at, i], out));
  else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) pathsOf(v[k]!, [...at, k], out);
  return out;
}

const text = (p: Path): string => p.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('');

/** Where edits go, by what they break first; each a filter on the path's text. */
const places = {
  anywhere: () => true,
  top: (p) => /^(\.format|\.options(\.\w+)?|\.world(\.\w+)?)$/.test(p),
  counters: (p) => /^\.world\.(now|revision|compactedRevision|revisionAtLastCompaction|nextCompactionAt|config\.\w+)$/.test(p) || /\.(resourceVersion|generation|observedGeneration|rv|size|cursor|nextIp|attempts|notBefore|fired|passed|replicas|readyReplicas|currentReplicas|updatedReplicas)$/.test(p),
  tries: (p) => /^\.world\.(objects\.[^.]+|owners|controllers\.node-agent\.(applied|ips))(\.\d+){1,4}$/.test(p) || /^\.world\.objects\.[^.]+(\.\d+){3}\.[^.]+(\.\d+){3}\.[^.]+$/.test(p),
  objects: (p) => /^\.world\.objects\.[^.]+(\.\d+){3}\.[^.]+(\.\d+){3}\.[^.]+$/.test(p) || /^\.world\.objects\.[^.]+$/.test(p),
  metadata: (p) => /^\.world\.objects\..*\.metadata(\.\w+|\.ownerReferences\[\d+\]\.\w+)?$/.test(p),
  log: (p) => p.startsWith('.world.log'),
  memories: (p) => /^\.world\.(controllers|faults|rng|retries)/.test(p),
} satisfies Readonly<Record<string, (p: string) => boolean>>;
export type Place = keyof typeof places;

/** A value of another type, or one out of range; `raw:` values are written into the JSON text as they are. */
const hostile = fc.constantFrom<Json>(
  null, true, false, 0, -1, 1, 3, 1000, 1.5, -0.5, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e308, -1e308, 5e-324,
  '', 'x', '0', '-1', '12a', '1e3', '9007199254740993', '2026-01-01T00:00:00Z', 'platform-sim/world@1', 'platform-sim/world@3', 'platform-sim/snapshot@2', 'k8s.io', 'core/pods', 'MODIFIED', '__proto__',
  [], [null], [1, 2], {}, { a: 1 },
  'raw:1e400', 'raw:-1e400', 'raw:1e-400', 'raw:123456789012345678901234567890', 'raw:-0', 'raw:0.1e1', 'raw:1E2',
);

/** Keys to add or rename to: prototype members, slot names out of range, keys already in use elsewhere. */
const keys = fc.oneof(fc.constantFrom(...prototypeNames), fc.constantFrom('64', '-1', '007', '1.5', '', ' ', 'default', 'kube-system', 'web-0', 'core/configmaps', 'extra', 'format'));

export type Edit =
  | { readonly op: 'delete'; readonly at: Place; readonly i: number }
  | { readonly op: 'set'; readonly at: Place; readonly i: number; readonly value: Json }
  | { readonly op: 'swap' | 'copy'; readonly at: Place; readonly i: number; readonly to: Place; readonly j: number }
  | { readonly op: 'addKey' | 'rename'; readonly at: Place; readonly i: number; readonly key: string };

const place = fc.constantFrom<Place>(...(Object.keys(places) as Place[]));
const index = fc.nat({ max: 1_000_000 });

export const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: place, i: index }),
  { weight: 2, arbitrary: fc.record({ op: fc.constant('set' as const), at: place, i: index, value: hostile }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constantFrom('swap' as const, 'copy' as const), at: place, i: index, to: place, j: index }) },
  fc.record({ op: fc.constantFrom('addKey' as const, 'rename' as const), at: place, i: index, key: keys }),
);

/** One to four edits, mostly one: a single change gets past more of the checks. */
export const edits = fc.oneof({ weight: 3, arbitrary: fc.array(edit, { minLength: 1, maxLength: 1 }) }, { weight: 1, arbitrary: fc.array(edit, { minLength: 2, maxLength: 4 }) });

/** The parent of a path in `doc` and the last segment, or null when an earlier edit removed it. */
function resolve(doc: Json, p: Path): { parent: JsonObject | Json[]; key: string | number } | null {
  if (p.length === 0) return null;
  let node: Json = doc;
  for (const s of p.slice(0, -1)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, s)) return null;
    node = (node as JsonObject)[s as string]!;
  }
  if (node === null || typeof node !== 'object' || !Object.hasOwn(node, p[p.length - 1]!)) return null;
  return { parent: node as JsonObject | Json[], key: p[p.length - 1]! };
}

/** Sets an own property, `__proto__` included (as JSON.parse makes it). */
function own(o: JsonObject, key: string, value: Json): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Replaces an array element or an object's own property (never the prototype, whatever the key). */
function put(parent: JsonObject | Json[], key: string | number, value: Json): void {
  if (Array.isArray(parent)) parent[key as number] = value;
  else own(parent, key as string, value);
}

const copy = (v: Json): Json => JSON.parse(JSON.stringify(v)) as Json;

/** A snapshot's places and the edits made readable, for the failure report. */
export class Mutator {
  readonly #pristine: string;
  readonly #byPlace: ReadonlyMap<Place, readonly Path[]>;

  constructor(snapshotText: string) {
    this.#pristine = snapshotText;
    // Not the snapshot itself: its parent is no place to edit.
    const all = pathsOf(JSON.parse(snapshotText) as Json).filter((p) => p.length > 0);
    this.#byPlace = new Map(
      (Object.keys(places) as Place[]).map((name) => {
        const chosen = all.filter((p) => places[name](text(p)));
        return [name, chosen.length === 0 ? all : chosen];
      }),
    );
  }

  path(at: Place, i: number): Path {
    const list = this.#byPlace.get(at)!;
    return list[i % list.length]!;
  }

  /** The snapshot's text with the edits made, in order. */
  apply(list: readonly Edit[]): string {
    const doc = JSON.parse(this.#pristine) as Json;
    for (const e of list) {
      const here = resolve(doc, this.path(e.at, e.i));
      if (here === null) continue;
      const { parent, key } = here;
      const value = (parent as JsonObject)[key as string]!;
      switch (e.op) {
        case 'delete':
          if (Array.isArray(parent)) parent.splice(key as number, 1);
          else delete parent[key as string];
          break;
        case 'set':
          put(parent, key, e.value);
          break;
        case 'swap':
        case 'copy': {
          const there = resolve(doc, this.path(e.to, e.j));
          if (there === null) break;
          const other = (there.parent as JsonObject)[there.key as string]!;
          put(there.parent, there.key, e.op === 'swap' ? value : copy(value));
          put(parent, key, e.op === 'swap' ? other : value);
          break;
        }
        case 'addKey':
          // Into the object there, or beside the value there (a copy of it under the new key);
          // a list gets its first item again.
          if (Array.isArray(value)) value.push(copy(value[0] ?? null));
          else if (value !== null && typeof value === 'object') own(value, e.key, Object.keys(value).length === 0 ? null : copy(value[Object.keys(value)[0]!]!));
          else if (!Array.isArray(parent)) own(parent, e.key, copy(value));
          break;
        case 'rename':
          if (Array.isArray(parent)) {
            // A list item has no key: it moves to the end instead (the log's order, a list's).
            parent.push(...parent.splice(key as number, 1));
          } else if (e.key !== key) {
            // The renamed key takes the old one's place in the order.
            const entries = Object.entries(parent);
            for (const k of Object.keys(parent)) delete parent[k];
            for (const [k, v] of entries) own(parent, k === key ? e.key : k, v);
          }
          break;
      }
    }
    return JSON.stringify(doc).replace(/"raw:([^"\\]*)"/g, '$1');
  }

  /** `set .world.revision to 0` … */
  describe(list: readonly Edit[]): string {
    return list
      .map((e) => {
        const at = text(this.path(e.at, e.i));
        switch (e.op) {
          case 'delete':
            return `delete ${at}`;
          case 'set':
            return `set ${at} to ${JSON.stringify(e.value)}`;
          case 'swap':
          case 'copy':
            return `${e.op} ${at} ${e.op === 'swap' ? 'with' : 'over'} ${text(this.path(e.to, e.j))}`;
          case 'addKey':
            return `add key ${JSON.stringify(e.key)} to ${at}`;
          case 'rename':
            return typeof this.path(e.at, e.i).at(-1) === 'number' ? `move ${at} to the end of its list` : `rename ${at} to ${JSON.stringify(e.key)}`;
        }
      })
      .join('; ');
  }
}
