/**
 * Views of one resource kept up to date by its changes instead of rebuilt: an index a controller
 * would otherwise make by listing every object each settle round (events by correlation key,
 * pods waiting for a node). A view is a function of the stored objects alone; it is brought from
 * the version it last reflected to the one asked for by the objects that differ between them
 * (trieChanges), which costs the writes in between when the two versions share structure — the
 * common case, a settle moving one world forward — and a full rebuild when they do not.
 */
import type { KubeObject } from '../api/meta.ts';
import { emptyTrie, trieChanges, type Trie } from './trie.ts';
import type { World } from './world.ts';

type Stored = Trie<Trie<KubeObject>>;

/** Every stored object of a resource that differs between two versions of its store. */
export function objectChanges(
  before: Stored,
  after: Stored,
  visit: (namespace: string, name: string, before: KubeObject | undefined, after: KubeObject | undefined) => void,
): void {
  trieChanges(before, after, (namespace, b, a) => trieChanges(b ?? emptyTrie, a ?? emptyTrie, (name, ob, oa) => visit(namespace, name, ob, oa)));
}

export function storeOf(world: World, resource: string): Stored {
  return world.objects[resource] ?? emptyTrie;
}

export interface ViewUpdate<S> {
  /** The view of an empty store. */
  readonly empty: () => S;
  /** Brings the view over one object's change (absent before: created; absent after: deleted). */
  readonly change: (state: S, namespace: string, name: string, before: KubeObject | undefined, after: KubeObject | undefined) => void;
}

/**
 * One incrementally maintained view of one resource. `read(world)` returns the view of that
 * world's objects; the returned state is shared and changes at the next `read` of another
 * version, so callers use it at once and never keep it or write to it.
 */
export class ResourceView<S> {
  readonly #resource: string;
  readonly #update: ViewUpdate<S>;
  #at: Stored = emptyTrie;
  #state: S;

  constructor(resource: string, update: ViewUpdate<S>) {
    this.#resource = resource;
    this.#update = update;
    this.#state = update.empty();
  }

  read(world: World): S {
    const target = storeOf(world, this.#resource);
    if (target === this.#at) return this.#state;
    const state = this.#state;
    try {
      objectChanges(this.#at, target, (ns, name, b, a) => this.#update.change(state, ns, name, b, a));
    } catch (e) {
      // Half brought over: start again from nothing next time.
      this.#state = this.#update.empty();
      this.#at = emptyTrie;
      throw e;
    }
    this.#at = target;
    return state;
  }
}
