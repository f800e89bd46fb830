/**
 * Model-based test (fast-check commands): random sequences of create / update (stale and fresh
 * resourceVersions) / patch (all four types) / delete / paged list on ServiceAccounts, checked
 * against a deliberately simple model after every command. Also: resourceVersion strictly
 * increases with every write, and every rejected request leaves `sim.hash()` unchanged.
 * A failure prints the seed; replay with FC_SEED=<seed> npx vitest run test/model.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../../src/index.ts';
import { saPath, sim, type Body } from '../helpers.ts';

interface Model {
  /** name → { rv, labels, automount } */
  accounts: Map<string, { rv: string; labels: Record<string, string>; automount?: boolean }>;
  lastRevision: number;
}
interface Real {
  s: Simulation;
}

const names = ['a', 'b', 'c', 'd'];
const nameArb = fc.constantFrom(...names);
const labelArb = fc.dictionary(fc.constantFrom('app', 'tier', 'team'), fc.constantFrom('x', 'y', 'z'), { maxKeys: 2 });

function checkRevision(m: Model, r: Real, wrote: boolean): void {
  const rev = r.s.world.revision;
  if (wrote) expect(rev).toBeGreaterThan(m.lastRevision);
  else expect(rev).toBe(m.lastRevision);
  m.lastRevision = rev;
}

async function expectUnchangedOnFailure(r: Real, run: () => Promise<{ status: number; body: unknown }>): Promise<{ status: number; body: Body }> {
  const before = r.s.hash();
  const res = await run();
  if (res.status >= 400) expect(r.s.hash()).toBe(before);
  return res as { status: number; body: Body };
}

class CreateCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly name: string, readonly labels: Record<string, string>) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const res = await expectUnchangedOnFailure(r, () => r.s.request({ method: 'POST', path: saPath(), body: { metadata: { name: this.name, labels: this.labels } } }));
    if (m.accounts.has(this.name)) {
      expect(res.status).toBe(409);
      checkRevision(m, r, false);
    } else {
      expect(res.status).toBe(201);
      m.accounts.set(this.name, { rv: res.body.metadata.resourceVersion, labels: this.labels });
      checkRevision(m, r, true);
    }
  }
  toString = () => `create(${this.name}, ${JSON.stringify(this.labels)})`;
}

class UpdateCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly name: string, readonly stale: boolean, readonly automount: boolean) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const known = m.accounts.get(this.name);
    const rv = known === undefined ? '1' : this.stale ? String(Number(known.rv) - 1) : known.rv;
    const res = await expectUnchangedOnFailure(r, () =>
      r.s.request({ method: 'PUT', path: saPath('default', this.name), body: { metadata: { name: this.name, resourceVersion: rv, labels: known?.labels ?? {} }, automountServiceAccountToken: this.automount } }),
    );
    if (known === undefined) expect(res.status).toBe(404);
    else if (this.stale) expect(res.status).toBe(409);
    else {
      expect(res.status).toBe(200);
      const changed = known.automount !== this.automount;
      known.automount = this.automount;
      known.rv = res.body.metadata.resourceVersion;
      checkRevision(m, r, changed);
      return;
    }
    checkRevision(m, r, false);
  }
  toString = () => `update(${this.name}, stale=${this.stale}, automount=${this.automount})`;
}

class PatchCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly name: string, readonly type: 'json' | 'merge' | 'strategic' | 'apply', readonly labels: Record<string, string>) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const known = m.accounts.get(this.name);
    let contentType = this.type === 'json' ? 'application/json-patch+json' : this.type === 'merge' ? 'application/merge-patch+json' : 'application/strategic-merge-patch+json';
    let body: unknown;
    let query = '';
    if (this.type === 'json') body = [{ op: 'replace', path: '/metadata/labels', value: this.labels }];
    else if (this.type === 'apply') {
      contentType = 'application/apply-patch+yaml';
      query = '?fieldManager=model&force=true';
      body = JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: this.name, labels: this.labels } });
    } else body = { metadata: { labels: Object.fromEntries(['app', 'tier', 'team'].map((k) => [k, this.labels[k] ?? null])) } };
    const res = await expectUnchangedOnFailure(r, () => r.s.request({ method: 'PATCH', path: `${saPath('default', this.name)}${query}`, headers: { 'content-type': contentType }, body }));
    if (known === undefined && this.type !== 'apply') {
      expect(res.status).toBe(404);
      checkRevision(m, r, false);
      return;
    }
    expect([200, 201]).toContain(res.status);
    const labels = (res.body.metadata.labels ?? {}) as Record<string, string>;
    if (this.type === 'apply') expect(Object.entries(this.labels).every(([k, v]) => labels[k] === v)).toBe(true);
    else expect(labels).toEqual(this.labels);
    const wrote = res.body.metadata.resourceVersion !== known?.rv;
    m.accounts.set(this.name, { rv: res.body.metadata.resourceVersion, labels, ...(known?.automount === undefined ? {} : { automount: known.automount }) });
    checkRevision(m, r, wrote);
  }
  toString = () => `patch(${this.name}, ${this.type}, ${JSON.stringify(this.labels)})`;
}

class DeleteCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly name: string) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const res = await expectUnchangedOnFailure(r, () => r.s.request({ method: 'DELETE', path: saPath('default', this.name) }));
    if (m.accounts.has(this.name)) {
      expect(res.status).toBe(200);
      m.accounts.delete(this.name);
      checkRevision(m, r, true);
    } else {
      expect(res.status).toBe(404);
      checkRevision(m, r, false);
    }
  }
  toString = () => `delete(${this.name})`;
}

class ListCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly limit: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const seen: string[] = [];
    let token = '';
    for (let page = 0; page < 20; page++) {
      const res = await r.s.request({ method: 'GET', path: `${saPath()}?limit=${this.limit}${token === '' ? '' : `&continue=${token}`}` });
      expect(res.status).toBe(200);
      const body = res.body as Body;
      seen.push(...body.items.map((i: Body) => i.metadata.name as string));
      token = body.metadata.continue ?? '';
      if (token === '') break;
    }
    expect(seen).toEqual(['default', ...m.accounts.keys()].sort());
    for (const [name, v] of m.accounts) {
      const got = (await r.s.request({ method: 'GET', path: saPath('default', name) })).body as Body;
      expect(got.metadata.resourceVersion).toBe(v.rv);
      expect(got.metadata.labels ?? {}).toEqual(v.labels);
    }
    checkRevision(m, r, false);
  }
  toString = () => `list(limit=${this.limit})`;
}

const commands = [
  fc.tuple(nameArb, labelArb).map(([n, l]) => new CreateCommand(n, l)),
  fc.tuple(nameArb, fc.boolean(), fc.boolean()).map(([n, s, a]) => new UpdateCommand(n, s, a)),
  fc.tuple(nameArb, fc.constantFrom('json' as const, 'merge' as const, 'strategic' as const, 'apply' as const), labelArb).map(([n, t, l]) => new PatchCommand(n, t, l)),
  nameArb.map((n) => new DeleteCommand(n)),
  fc.integer({ min: 1, max: 3 }).map((l) => new ListCommand(l)),
];

describe('ServiceAccount model', () => {
  it('agrees with a simple model after every command', async () => {
    const seed = process.env['FC_SEED'] === undefined ? 20260101 : Number(process.env['FC_SEED']);
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 40 }), async (cmds) => {
        const s = await sim({ seed: 3 });
        const model: Model = { accounts: new Map(), lastRevision: s.world.revision };
        await fc.asyncModelRun(() => ({ model, real: { s } }), cmds);
      }),
      { seed, numRuns: 60, verbose: 1 },
    );
  });
});
