/**
 * StatefulSet controller targets, in process through the library (`checkInvariants` off,
 * `podReadyAfter: '1s'`, settle auto): wall time from the create request until
 * `status.readyReplicas` reaches the replicas, then from a template image change until every pod
 * is updated and ready and `currentRevision = updateRevision`, advancing virtual time in 1 s
 * steps. Parallel 1,000 and OrderedReady 200 under 2 s each; growth 250 → 1,000 (Parallel) and
 * 50 → 200 (OrderedReady) with exponent log(t_big / t_small) / log 4 at most 1.3. The baseline,
 * measured in the same run, is the minimum work of making the pods: building that many pod
 * objects of the stored shape and `JSON.stringify`ing them into a plain Map.
 */
import { performance } from 'node:perf_hooks';
import type { KubeObject, Simulation } from '../src/index.ts';
import { createSimulation } from './package.ts';
import { collectGarbage, fmt, medianMs } from './measure.ts';
import type { Row } from './store.bench.ts';

const sets = '/apis/apps/v1/namespaces/default/statefulsets';

interface Scenario {
  readonly replicas: number;
  readonly parallel: boolean;
  /** `rollingUpdate.maxUnavailable`; absent → the default (1). */
  readonly maxUnavailable?: string;
  readonly rounds: number;
}

interface Timing {
  readonly readyMs: number;
  /** CPU time of the process over the same span (user + system, all threads). */
  readonly readyCpuMs: number;
  readonly readySteps: number;
  readonly rollMs: number;
  readonly rollCpuMs: number;
  readonly rollSteps: number;
  /** Median wall time of one `advance('1s')` while scaling up. */
  readonly stepMs: number;
}

type Progress = (msg: string) => void;

const label = (n: number): string => n.toLocaleString('en-US');
const steps = (n: number): string => `${label(n)} step${n === 1 ? '' : 's'}`;

function describe(sc: Scenario): string {
  const policy = sc.parallel ? 'Parallel' : 'OrderedReady';
  return `${policy} ${label(sc.replicas)}${sc.maxUnavailable === undefined ? '' : `, maxUnavailable ${sc.maxUnavailable}`}`;
}

function setBody(sc: Scenario): unknown {
  return {
    metadata: { name: 'web' },
    spec: {
      replicas: sc.replicas,
      ...(sc.parallel ? { podManagementPolicy: 'Parallel' } : {}),
      ...(sc.maxUnavailable === undefined ? {} : { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: sc.maxUnavailable } } }),
      selector: { matchLabels: { app: 'web' } },
      serviceName: 'web',
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
    },
  };
}

interface SetStatus {
  readonly readyReplicas?: number;
  readonly updatedReplicas?: number;
  readonly currentRevision?: string;
  readonly updateRevision?: string;
}

function statusOf(sim: Simulation): SetStatus {
  const res = sim.requestSync({ method: 'GET', path: `${sets}/web` });
  return ((res.body as { status?: SetStatus }).status ?? {}) as SetStatus;
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Advances 1 s at a time until `done`; the steps taken and each step's wall time. */
async function until(sim: Simulation, what: string, done: (s: SetStatus) => boolean, progress: Progress): Promise<{ steps: number; stepMs: number[] }> {
  const stepMs: number[] = [];
  const limit = 100_000;
  let lastReport = performance.now();
  for (;;) {
    const s = statusOf(sim);
    if (done(s)) return { steps: stepMs.length, stepMs };
    if (stepMs.length >= limit) throw new Error(`statefulset bench: ${what} not reached after ${limit} steps`);
    const t = performance.now();
    await sim.advance('1s');
    stepMs.push(performance.now() - t);
    if (performance.now() - lastReport > 10_000) {
      lastReport = performance.now();
      progress(`    … ${what}: ${steps(stepMs.length)}, ready ${s.readyReplicas ?? 0}, updated ${s.updatedReplicas ?? 0}`);
    }
  }
}

async function runOnce(sc: Scenario, progress: Progress): Promise<Timing> {
  const n = sc.replicas;
  collectGarbage();
  const sim = await createSimulation({ seed: 1, podReadyAfter: '1s', checkInvariants: false });
  const t0 = performance.now();
  const c0 = cpuMs();
  const created = sim.requestSync({ method: 'POST', path: sets, body: setBody(sc) });
  if (created.status !== 201) throw new Error(`statefulset bench: create answered ${created.status}`);
  const ready = await until(sim, 'scale-up', (s) => s.readyReplicas === n, progress);
  const readyMs = performance.now() - t0;
  const readyCpuMs = cpuMs() - c0;
  const old = statusOf(sim).updateRevision;
  const t1 = performance.now();
  const c1 = cpuMs();
  const patched = sim.requestSync({
    method: 'PATCH',
    path: `${sets}/web`,
    headers: { 'content-type': 'application/merge-patch+json' },
    body: { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } } } },
  });
  if (patched.status !== 200) throw new Error(`statefulset bench: image change answered ${patched.status}`);
  const rolled = await until(
    sim,
    'rolling update',
    (s) => s.updateRevision !== old && s.currentRevision === s.updateRevision && s.updatedReplicas === n && s.readyReplicas === n,
    progress,
  );
  const rollMs = performance.now() - t1;
  const rollCpuMs = cpuMs() - c1;
  sim.close();
  return { readyMs, readyCpuMs, readySteps: ready.steps, rollMs, rollCpuMs, rollSteps: rolled.steps, stepMs: median(ready.stepMs) };
}

/** Medians over the scenario's rounds, each field on its own. */
async function measure(sc: Scenario, progress: Progress): Promise<Timing> {
  const runs: Timing[] = [];
  for (let r = 0; r < sc.rounds; r++) {
    const t = await runOnce(sc, progress);
    progress(`  ${describe(sc)}, round ${r + 1}/${sc.rounds}: ready in ${fmt(t.readyMs)} ms (${steps(t.readySteps)}), rolled in ${fmt(t.rollMs)} ms (${steps(t.rollSteps)})`);
    runs.push(t);
  }
  const m = (f: (t: Timing) => number): number => median(runs.map(f));
  return {
    readyMs: m((t) => t.readyMs),
    readyCpuMs: m((t) => t.readyCpuMs),
    readySteps: m((t) => t.readySteps),
    rollMs: m((t) => t.rollMs),
    rollCpuMs: m((t) => t.rollCpuMs),
    rollSteps: m((t) => t.rollSteps),
    stepMs: m((t) => t.stepMs),
  };
}

/** A member pod as stored (defaults, status, managed fields), to give the baseline its shape. */
async function storedPod(): Promise<KubeObject> {
  const sim = await createSimulation({ seed: 1, podReadyAfter: '1s', checkInvariants: false });
  sim.requestSync({ method: 'POST', path: sets, body: setBody({ replicas: 1, parallel: true, rounds: 1 }) });
  await sim.advance('1s');
  const pod = sim.requestSync({ method: 'GET', path: '/api/v1/namespaces/default/pods/web-0' }).body as KubeObject;
  sim.close();
  return pod;
}

/** Building `n` pods of the stored shape and `JSON.stringify`ing them into a Map (ms, median). */
function baselineMs(pod: KubeObject, n: number): Promise<number> {
  return medianMs(() => {
    const m = new Map<string, string>();
    for (let i = 0; i < n; i++) {
      const name = `web-${i}`;
      const o = { ...pod, metadata: { ...pod.metadata, name, uid: `uid-${i}`, labels: { ...pod.metadata.labels } } };
      m.set(`default/${name}`, JSON.stringify(o));
    }
    return m;
  }, 15);
}

const exponent = (small: number, big: number): number => Math.log(big / small) / Math.log(4);
const seconds = '< 2 s';

export async function statefulSetBench(progress: Progress): Promise<Row[]> {
  progress('statefulset: baseline pods');
  const pod = await storedPod();
  const base = new Map<number, number>();
  for (const n of [50, 200, 250, 1_000]) base.set(n, await baselineMs(pod, n));
  const baseline = (n: number, what = 'build + JSON.stringify'): string => `${fmt(base.get(n)!)} (${what} ${label(n)} pods into a Map)`;

  const scenarios = {
    parallelBig: { replicas: 1_000, parallel: true, maxUnavailable: '100%', rounds: 3 },
    parallelSmall: { replicas: 250, parallel: true, maxUnavailable: '100%', rounds: 3 },
    orderedBig: { replicas: 200, parallel: false, rounds: 3 },
    orderedSmall: { replicas: 50, parallel: false, rounds: 3 },
    parallelDefaultSmall: { replicas: 250, parallel: true, rounds: 3 },
    parallelDefaultBig: { replicas: 1_000, parallel: true, rounds: 3 },
  } satisfies Record<string, Scenario>;
  // Warm-up (JIT), not measured.
  await runOnce({ replicas: 100, parallel: true, maxUnavailable: '100%', rounds: 1 }, progress);
  const t: Record<string, Timing> = {};
  for (const [key, sc] of Object.entries(scenarios)) {
    progress(`statefulset: ${describe(sc)} (${sc.rounds} round${sc.rounds === 1 ? '' : 's'})`);
    t[key] = await measure(sc, progress);
  }
  const pb = t['parallelBig']!;
  const ps = t['parallelSmall']!;
  const ob = t['orderedBig']!;
  const os = t['orderedSmall']!;
  const db = t['parallelDefaultBig']!;
  const ds = t['parallelDefaultSmall']!;
  const rows: Row[] = [];
  const timed = (what: string, ms: number, cpu: number, n: number, target: string | null, extra: string): void => {
    rows.push({ what, value: `${fmt(ms)} (CPU ${fmt(cpu)}; ${extra})`, baseline: baseline(n), target: target ?? '', ok: target === null ? null : ms < 2000 });
  };
  timed('Parallel 1,000: create → readyReplicas 1,000 (ms)', pb.readyMs, pb.readyCpuMs, 1_000, seconds, steps(pb.readySteps));
  timed('Parallel 1,000: rolling update, maxUnavailable 1 (the default) (ms)', db.rollMs, db.rollCpuMs, 1_000, seconds, `${steps(db.rollSteps)} of 1 s: one pod per readiness delay`);
  timed('Parallel 1,000: rolling update, maxUnavailable 100% (ms)', pb.rollMs, pb.rollCpuMs, 1_000, seconds, steps(pb.rollSteps));
  timed('OrderedReady 200: create → readyReplicas 200 (ms)', ob.readyMs, ob.readyCpuMs, 200, seconds, `${steps(ob.readySteps)}, median ${fmt(ob.stepMs)} ms each`);
  timed('OrderedReady 200: rolling update (ms)', ob.rollMs, ob.rollCpuMs, 200, seconds, steps(ob.rollSteps));
  const growth = (what: string, small: number, big: number, b: [number, number], target: boolean): void => {
    const e = exponent(small, big);
    const be = exponent(base.get(b[0])!, base.get(b[1])!);
    rows.push({ what, value: `${e.toFixed(2)} (${fmt(small)} → ${fmt(big)} ms)`, baseline: `${be.toFixed(2)} (the pod-building baseline)`, target: target ? '≤ 1.3' : 'informational', ok: target ? e <= 1.3 : null });
  };
  growth('growth, Parallel 250 → 1,000: create → ready', ps.readyMs, pb.readyMs, [250, 1_000], true);
  growth('growth, Parallel 250 → 1,000: rolling update, maxUnavailable 100%', ps.rollMs, pb.rollMs, [250, 1_000], true);
  growth('growth, Parallel 250 → 1,000: rolling update, maxUnavailable 1', ds.rollMs, db.rollMs, [250, 1_000], true);
  growth('growth, OrderedReady 50 → 200: create → ready', os.readyMs, ob.readyMs, [50, 200], true);
  growth('growth, OrderedReady 50 → 200: rolling update', os.rollMs, ob.rollMs, [50, 200], true);
  return rows;
}
