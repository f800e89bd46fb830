/**
 * The service-account controller's one job we simulate: every active namespace has a
 * ServiceAccount named `default`, recreated if deleted.
 */
import type { KubeObject } from '../../api/meta.ts';
import { assert } from '../../core/assert.ts';
import { getObject, listObjects } from '../../store/objects.ts';
import { compareKeys, emptyTrie, type Trie } from '../../store/trie.ts';
import { objectChanges, storeOf } from '../../store/views.ts';
import type { World } from '../../store/world.ts';
import { controllerManagerActor, type Controller, type ControllerEnv, type Intent } from '../types.ts';

const namespaces = 'core/namespaces';
const accounts = 'core/serviceaccounts';

type Stored = Trie<Trie<KubeObject>>;

/**
 * The active namespaces without a `default` account, kept from the changes of the two stores
 * since the versions last read (as store/views.ts does for one store): a namespace created in a
 * cluster of thousands costs its own check, not one per namespace.
 */
class MissingDefaults {
  #namespacesAt: Stored = emptyTrie;
  #accountsAt: Stored = emptyTrie;
  readonly #active = new Set<string>();
  readonly #having = new Set<string>();
  readonly #missing = new Set<string>();

  read(world: World): readonly string[] {
    const ns = storeOf(world, namespaces);
    const sa = storeOf(world, accounts);
    if (ns !== this.#namespacesAt || sa !== this.#accountsAt) {
      try {
        this.#bringOver(ns, sa);
      } catch (e) {
        // Half brought over: start again from nothing next time.
        this.#namespacesAt = this.#accountsAt = emptyTrie;
        this.#active.clear();
        this.#having.clear();
        this.#missing.clear();
        throw e;
      }
    }
    return this.#missing.size === 0 ? [] : [...this.#missing].sort(compareKeys);
  }

  #bringOver(ns: Stored, sa: Stored): void {
    const touched = new Set<string>();
    objectChanges(this.#namespacesAt, ns, (_namespace, name, _before, after) => {
      if (after !== undefined && after.metadata.deletionTimestamp === undefined) this.#active.add(name);
      else this.#active.delete(name);
      touched.add(name);
    });
    objectChanges(this.#accountsAt, sa, (namespace, name, _before, after) => {
      if (name !== 'default') return;
      if (after !== undefined) this.#having.add(namespace);
      else this.#having.delete(namespace);
      touched.add(namespace);
    });
    for (const name of touched) {
      if (this.#active.has(name) && !this.#having.has(name)) this.#missing.add(name);
      else this.#missing.delete(name);
    }
    this.#namespacesAt = ns;
    this.#accountsAt = sa;
  }
}

const missingDefaults = new MissingDefaults();

function namespacesMissingDefault(world: World, env: ControllerEnv): readonly string[] {
  const missing = missingDefaults.read(world);
  if (env.checkViews === true) {
    const listed = listObjects(world, namespaces, null)
      .filter((ns) => ns.metadata.deletionTimestamp === undefined && getObject(world, accounts, ns.metadata.name ?? '', 'default') === undefined)
      .map((ns) => ns.metadata.name ?? '');
    assert(listed.length === missing.length && listed.every((name, i) => name === missing[i]), 'serviceaccount-controller: the kept view of namespaces without a default account is stale');
  }
  return missing;
}

export const defaultServiceAccountController: Controller = {
  name: 'serviceaccount-controller',
  actor: controllerManagerActor('service-account-controller'),
  watches: [namespaces, accounts],
  // What it reads of ServiceAccounts is whether each namespace has one named `default`.
  reactsTo: (change) => change.resource !== accounts || change.name === 'default',
  reconcile(world, env) {
    const intents: Intent[] = [];
    for (const name of namespacesMissingDefault(world, env)) {
      intents.push({ type: 'create', resource: accounts, object: { metadata: { name: 'default', namespace: name } } });
    }
    return intents;
  },
  nextWakeup: () => null,
};
