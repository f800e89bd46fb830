/**
 * Issue 2 targets: createSimulation + first request under 50 ms; create, get and update of one
 * ServiceAccount with 1,000 / 10,000 / 100,000 stored, update throughput at 100,000 within 3× of
 * that at 1,000. Issue 13: with default options (settle after every write), merge-PATCH and POST
 * against a Map holding the stored objects, updated by structuredClone (≥ 0.25 of it at 1,000,
 * ≥ 0.2 at 100,000); at 100,000, `sim.hash()` after one write ≤ 50 ms and a 500-item list page
 * ≤ 10 ms. Each figure is printed beside its baseline measured in this run; the writes and their
 * structuredClone baselines in alternating rounds.
 */
import type { Simulation } from '../src/index.ts';
import { createSimulation } from './package.ts';
import { fmt, medianMs, rate, ratePair } from './measure.ts';

export interface Row {
  readonly what: string;
  readonly value: string;
  readonly baseline: string;
  readonly target: string;
  readonly ok: boolean | null;
}

async function populate(n: number, progress: (msg: string) => void, options: { settle?: 'auto' | 'manual'; checkInvariants?: boolean } = {}): Promise<Simulation> {
  // Default options: every write settles (the scheduler's dirty set makes that cheap).
  const s = await createSimulation({ seed: 1, ...options });
  for (let i = 0; i < n; i++) {
    s.requestSync({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', body: { metadata: { name: `sa-${i}`, labels: { app: 'bench' } } } });
    if (i > 0 && i % 20000 === 0) progress(`  populated ${i.toLocaleString('en-US')} / ${n.toLocaleString('en-US')}`);
  }
  // A cluster that has been running has compacted history (every 5 minutes, as etcd); filling a
  // store in zero virtual time would otherwise keep 100,000 log entries no real server keeps.
  await s.advance('11m');
  return s;
}

/**
 * PATCHes of the n ServiceAccounts in turn, each changing its object, as every baseline update
 * does: the object's field is toggled from what it holds (a patch that changes nothing is
 * answered without a write).
 */
function changingPatches(s: Simulation, n: number): () => unknown {
  const toggled = new Uint8Array(n);
  let k = 0;
  return () => {
    const j = k++ % n;
    return s.requestSync({
      method: 'PATCH',
      path: `/api/v1/namespaces/default/serviceaccounts/sa-${j}`,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { automountServiceAccountToken: (toggled[j] = 1 - toggled[j]!) === 1 },
    });
  };
}

export async function storeBench(progress: (msg: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  const startup = await medianMs(async () => {
    const s = await createSimulation({ seed: 1 });
    await s.request({ method: 'GET', path: '/api/v1/namespaces/default/serviceaccounts' });
  }, 15);
  const mapStartup = await medianMs(() => {
    const m = new Map<string, string>();
    m.set('default/default', JSON.stringify({ metadata: { name: 'default' } }));
    return JSON.parse(m.get('default/default')!);
  }, 15);
  rows.push({ what: 'createSimulation + first request (ms)', value: fmt(startup), baseline: `${fmt(mapStartup)} (new Map + JSON)`, target: '< 50 ms', ok: startup < 50 });

  const updates: Record<number, number> = {};
  for (const n of [1_000, 10_000, 100_000]) {
    progress(`store with ${n.toLocaleString('en-US')} ServiceAccounts`);
    const s = await populate(n, progress);
    const baseline = new Map<string, string>();
    for (let i = 0; i < n; i++) baseline.set(`default/sa-${i}`, JSON.stringify({ metadata: { name: `sa-${i}` } }));
    let k = 0;
    const get = await rate(() => s.requestSync({ method: 'GET', path: `/api/v1/namespaces/default/serviceaccounts/sa-${k++ % n}` }));
    const mapGet = await rate(() => JSON.parse(baseline.get(`default/sa-${k++ % n}`)!));
    const changingPatch = changingPatches(s, n);
    const mapUpdate = await rate(() => {
      const key = `default/sa-${k++ % n}`;
      const o = JSON.parse(baseline.get(key)!);
      o.automountServiceAccountToken = !o.automountServiceAccountToken;
      baseline.set(key, JSON.stringify(o));
    });
    // The baseline: the stored objects in a Map, an update a structuredClone, changed, put
    // back. The object is a stored ServiceAccount as the PATCHes leave it (sa-0, patched once).
    changingPatch();
    const stored = s.requestSync({ method: 'GET', path: '/api/v1/namespaces/default/serviceaccounts/sa-0' }).body as { metadata: Record<string, unknown> };
    const cloned = new Map<string, typeof stored>();
    for (let i = 0; i < n; i++) cloned.set(`default/sa-${i}`, { ...stored, metadata: { ...stored.metadata, name: `sa-${i}` } });
    const cloneUpdate = (): void => {
      const key = `default/sa-${k++ % n}`;
      const o = structuredClone(cloned.get(key)!) as typeof stored & { automountServiceAccountToken?: boolean };
      o.automountServiceAccountToken = !o.automountServiceAccountToken;
      cloned.set(key, o);
    };
    let cc = 0;
    const cloneCreate = (): void => {
      const o = structuredClone(stored);
      o.metadata = { ...o.metadata, name: `clone-${cc++}` };
      cloned.set(`default/clone-${cc}`, o);
    };
    let c = 0;
    const post = (): unknown => s.requestSync({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', body: { metadata: { name: `new-${n}-${c++}` } } });
    // Each write beside its baseline in alternating rounds (measure.ts ratePair).
    const [update, cloneUpdated] = await ratePair(changingPatch, cloneUpdate);
    const [create, cloneCreated] = await ratePair(post, cloneCreate);
    updates[n] = update.opsPerSecond;
    const label = n.toLocaleString('en-US');
    rows.push({ what: `GET one ServiceAccount, ${label} stored (req/s)`, value: fmt(get.opsPerSecond), baseline: `${fmt(mapGet.opsPerSecond)} (Map.get + JSON.parse)`, target: '', ok: null });
    rows.push({ what: `PATCH one ServiceAccount, ${label} stored (req/s)`, value: fmt(update.opsPerSecond), baseline: `${fmt(mapUpdate.opsPerSecond)} (Map read-modify-write)`, target: '', ok: null });
    rows.push({ what: `POST one ServiceAccount, ${label} stored (req/s)`, value: fmt(create.opsPerSecond), baseline: '', target: '', ok: null });
    if (n === 1_000) {
      // What settling after each write costs: the same PATCH where the caller settles when it
      // likes; and what the invariant checkers cost when tests turn them on (each step judged by
      // what it changed, not by the store and the whole watch log).
      const variant = async (options: { settle?: 'manual'; checkInvariants?: boolean }): Promise<number> => {
        const other = await populate(n, progress, options);
        const r = await rate(changingPatches(other, n));
        other.close();
        return r.opsPerSecond;
      };
      const manualPatch = await variant({ settle: 'manual' });
      const checkedPatch = await variant({ checkInvariants: true });
      rows.push({ what: `PATCH one ServiceAccount, ${label} stored, settle: 'manual' (req/s)`, value: fmt(manualPatch), baseline: `${fmt(update.opsPerSecond)} (settle: 'auto', above)`, target: '', ok: null });
      rows.push({ what: `PATCH one ServiceAccount, ${label} stored, checkInvariants: true (req/s)`, value: fmt(checkedPatch), baseline: `${fmt(update.opsPerSecond)} (without the checkers, above)`, target: '', ok: null });
    }
    if (n === 1_000 || n === 100_000) {
      const want = n === 1_000 ? 0.25 : 0.2;
      const pr = update.opsPerSecond / cloneUpdated.opsPerSecond;
      const cr = create.opsPerSecond / cloneCreated.opsPerSecond;
      rows.push({ what: `merge-PATCH ÷ Map + structuredClone update, ${label} stored`, value: `${pr.toFixed(2)} (${fmt(update.opsPerSecond)}/s)`, baseline: `${fmt(cloneUpdated.opsPerSecond)}/s`, target: `≥ ${want}`, ok: pr >= want });
      rows.push({ what: `POST ÷ Map + structuredClone insert, ${label} stored`, value: `${cr.toFixed(2)} (${fmt(create.opsPerSecond)}/s)`, baseline: `${fmt(cloneCreated.opsPerSecond)}/s`, target: `≥ ${want}`, ok: cr >= want });
    }
    if (n === 100_000) {
      progress('  sim.hash() and list pages at 100,000');
      const firstHash = await medianMs(() => s.hash(), 1);
      const rehash = await medianMs(() => {
        changingPatch();
        return s.hash();
      }, 15);
      rows.push({ what: 'sim.hash(), 100,000 stored: first / a write and the hash again (ms)', value: `${fmt(firstHash)} / ${fmt(rehash)}`, baseline: '', target: '≤ 50 ms after one write', ok: rehash <= 50 });
      const list = '/api/v1/namespaces/default/serviceaccounts?limit=500';
      const first = s.requestSync({ method: 'GET', path: list }).body as { metadata: { continue: string } };
      let cont = first.metadata.continue;
      const page = await medianMs(() => {
        const r = s.requestSync({ method: 'GET', path: `${list}&continue=${encodeURIComponent(cont)}` }).body as { metadata: { continue: string } };
        cont = r.metadata.continue;
      }, 15);
      const written = await medianMs(() => {
        changingPatch();
        s.requestSync({ method: 'GET', path: list });
      }, 15);
      const slice = await medianMs(() => [...cloned.values()].slice(50_000, 50_500).map((o) => JSON.stringify(o)), 15);
      rows.push({ what: 'a 500-item list page, 100,000 stored: next page (continue) / a write and the first page (ms)', value: `${fmt(page)} / ${fmt(written)}`, baseline: `${fmt(slice)} (500 of a Map's values, stringified)`, target: '≤ 10 ms', ok: page <= 10 && written <= 10 });
    }
  }
  const ratio = updates[1_000]! / updates[100_000]!;
  rows.push({ what: 'update throughput at 1,000 ÷ at 100,000', value: ratio.toFixed(2), baseline: '1.00 (a store that does not degrade)', target: '≤ 3', ok: ratio <= 3 });
  return rows;
}
