/**
 * Kinds to paths, read from the target's own discovery documents (/api/v1, /apis and each group
 * version), so a scenario names objects by apiVersion and kind as a manifest does and runs
 * unchanged in process, against `serve`, or against a real cluster.
 */
import type { ScenarioDriver } from './driver.ts';
import type { ObjectRef } from './format.ts';

interface Resource {
  readonly name: string;
  readonly namespaced: boolean;
}

export class Kinds {
  readonly #driver: ScenarioDriver;
  /** `apiVersion|kind` → resource. */
  #table: Map<string, Resource> | undefined;
  /** Plural resource name → kind (for trace lines, which name resources). */
  readonly #kindOfPlural = new Map<string, string>();

  constructor(driver: ScenarioDriver) {
    this.#driver = driver;
  }

  async #load(): Promise<Map<string, Resource>> {
    if (this.#table !== undefined) return this.#table;
    const table = new Map<string, Resource>();
    const add = (apiVersion: string, list: unknown): void => {
      for (const r of (list as { resources?: { name: string; kind: string; namespaced: boolean }[] }).resources ?? []) {
        if (r.name.includes('/')) continue;
        table.set(`${apiVersion}|${r.kind}`, { name: r.name, namespaced: r.namespaced });
        this.#kindOfPlural.set(r.name, r.kind);
      }
    };
    add('v1', (await this.#driver.request({ method: 'GET', path: '/api/v1' })).body);
    const groups = (await this.#driver.request({ method: 'GET', path: '/apis' })).body as { groups?: { versions: { groupVersion: string }[] }[] };
    for (const g of groups.groups ?? []) {
      for (const v of g.versions) add(v.groupVersion, (await this.#driver.request({ method: 'GET', path: `/apis/${v.groupVersion}` })).body);
    }
    this.#table = table;
    return table;
  }

  /** The kind of a trace's resource id (`core/pods` → `Pod`); the id itself when discovery has not named it. */
  kindOfResource(resource: string): string {
    return this.#kindOfPlural.get(resource.slice(resource.indexOf('/') + 1)) ?? resource;
  }

  /** The group of a kind's apiVersion as the target serves it (`certificates.platform.io`), by kind alone. */
  async apiVersionOf(kind: string): Promise<string | undefined> {
    for (const key of (await this.#load()).keys()) if (key.endsWith(`|${kind}`)) return key.split('|')[0];
    return undefined;
  }

  /** The collection path of a kind (in a namespace), or a message when the target does not serve it. */
  async collection(apiVersion: string, kind: string, namespace: string | undefined): Promise<{ path: string; namespaced: boolean } | string> {
    const r = (await this.#load()).get(`${apiVersion}|${kind}`);
    if (r === undefined) return `the server does not serve kind ${kind} in ${apiVersion}`;
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const ns = r.namespaced ? `/namespaces/${encodeURIComponent(namespace ?? 'default')}` : '';
    return { path: `${base}${ns}/${r.name}`, namespaced: r.namespaced };
  }

  async objectPath(ref: ObjectRef): Promise<string> {
    const c = await this.collection(ref.apiVersion, ref.kind, ref.namespace);
    if (typeof c === 'string') throw new ScenarioError(c);
    return `${c.path}/${encodeURIComponent(ref.name)}`;
  }
}

/** A step that cannot be carried out as written (an unknown kind, a missing capture): it fails with this message. */
export class ScenarioError extends Error {}
