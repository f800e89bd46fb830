/**
 * Bounds on what the store holds, checked on a write the API has worked out and not yet
 * committed (the caller keeps the world it had), in Kubernetes' order: quota admission, then
 * storage.
 *
 * - Objects per kind (`limits.objectsPerKindMax`, all namespaces): a create beyond it is refused
 *   as Kubernetes refuses one beyond a ResourceQuota's object count — 403 Forbidden,
 *   `exceeded quota: …, requested: count/<resource>=1, used: …, limited: …` — a simulation-wide
 *   quota named `objects-per-kind`. It applies to dry runs too, as quota admission does.
 * - Stored object size (`limits.storedObjectBytesMax`, etcd's 1.5 MiB request limit): etcd
 *   refuses the write with `etcdserver: request is too large`, which kube-apiserver answers as a
 *   reasonless 500; here it is a 400 BadRequest with that message (a client's mistake is never a
 *   5xx, docs/divergences.md). A dry run never reaches etcd, so it is not measured.
 *
 * Counting is cheap: no kind can hold more objects than revisions were ever taken, so below the
 * bound nothing is counted; past it a kind's count is kept per stored trie and carried from one
 * create to the next.
 */
import type { KubeObject } from '../api/meta.ts';
import { isObject } from '../core/json.ts';
import { jsonBytesAtMost } from '../core/jsonSizeBound.ts';
import { limits } from '../core/limits.ts';
import { errors, qualifiedResource, type ApiError } from '../core/status.ts';
import type { ResourceType } from '../registry/types.ts';
import { emptyTrie, trieGet, trieKeys, type Trie } from './trie.ts';
import type { World } from './world.ts';

/** Objects of a kind, by the identity of its namespace trie (stored tries never change). */
const counts = new WeakMap<object, number>();

function countOf(byNamespace: Trie<Trie<KubeObject>>): number {
  let n = counts.get(byNamespace);
  if (n === undefined) {
    n = 0;
    for (const ns of trieKeys(byNamespace)) n += trieKeys(trieGet(byNamespace, ns)!).length;
    counts.set(byNamespace, n);
  }
  return n;
}

/** A kind's objects (its ids are the registry's, never a request's). */
const storedOf = (world: World, id: string): Trie<Trie<KubeObject>> => (Object.hasOwn(world.objects, id) ? world.objects[id]! : emptyTrie);

/** The quota-like refusal of a create of `rt` in `before`, or null; `after`: the world it made. */
function quotaRefusal(before: World, after: World, rt: ResourceType, name: string): ApiError | null {
  if (before.revision < limits.objectsPerKindMax) return null;
  const stored = storedOf(before, rt.id);
  const used = countOf(stored);
  if (used < limits.objectsPerKindMax) {
    const grown = storedOf(after, rt.id);
    if (grown !== stored) counts.set(grown, used + 1);
    return null;
  }
  const counted = `count/${qualifiedResource({ group: rt.group, resource: rt.resource })}`;
  const why = `exceeded quota: objects-per-kind, requested: ${counted}=1, used: ${counted}=${used}, limited: ${counted}=${limits.objectsPerKindMax}`;
  return errors.forbidden({ group: rt.group, resource: rt.resource }, name, why);
}

/**
 * Whether an object's JSON is longer than the limit, in UTF-8 bytes. A bound taken without
 * encoding clears every object far below the limit (the answer is then encoded only if someone
 * reads it); only a large object is encoded.
 */
function tooLarge(object: unknown): boolean {
  if (jsonBytesAtMost(object, limits.storedObjectBytesMax)) return false;
  const text = JSON.stringify(object);
  return text.length * 3 > limits.storedObjectBytesMax && new TextEncoder().encode(text).length > limits.storedObjectBytesMax;
}

/** A write of `rt` the API worked out: the world before and after, and its answer. */
export interface StoredWrite {
  readonly before: World;
  readonly after: World;
  readonly rt: ResourceType;
  /** 201: a new object was stored (a create, a PUT or an apply that created). */
  readonly code: number;
  /** The answer's object: the stored object when it is of the kind (not a Scale, a TokenRequest, …). */
  readonly body: unknown;
}

/**
 * Why the write may not be committed, or null. `checks`: `count` leaves the size out, for the
 * controllers' writes, whose objects come from stored ones (a pod from its set's template).
 */
export function storageRefusal(w: StoredWrite, checks: 'count and size' | 'count' = 'count and size'): ApiError | null {
  const object = isObject(w.body) && w.body['kind'] === w.rt.kind && isObject(w.body['metadata']) ? (w.body as unknown as KubeObject) : null;
  if (object === null) return null;
  if (w.code === 201) {
    const refused = quotaRefusal(w.before, w.after, w.rt, object.metadata.name ?? '');
    if (refused !== null) return refused;
  }
  if (checks === 'count and size' && w.after !== w.before && tooLarge(object)) return errors.badRequest('etcdserver: request is too large');
  return null;
}
