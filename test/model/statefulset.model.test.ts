/**
 * Property: random sequences of what users and kubelets do to StatefulSets — create (OrderedReady
 * or Parallel, 0–5 replicas, claims kept or deleted on scale-down, minReadySeconds,
 * ordinals.start, maxUnavailable, partition), scale, change the image, the partition,
 * ordinals.start or minReadySeconds, delete the set, flip a pod's Ready condition as a kubelet
 * would, mark a pod never-ready, delete a pod, make the template's pods fail or never get ready,
 * let time pass.
 * Safety: the invariant checkers (src/sim/checkers/statefulSet*.ts) run after every instant
 * a step visits. Liveness: once healed (the template healthy again, stuck pods deleted) every
 * set converges within bounded virtual time: all its pods ready, updated above the partition,
 * the revision rolled forward when the partition is 0, the generation observed.
 * Half the runs draw the controllers' order in each settle round from the simulation's seed.
 * A failure prints the seed; replay with FC_SEED=<seed> npx vitest run test/model/statefulset.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../../src/index.ts';
import { sim, type Body } from '../helpers.ts';

const setsPath = '/apis/apps/v1/namespaces/default/statefulsets';
const podsPath = '/api/v1/namespaces/default/pods';
const revisionsPath = '/apis/apps/v1/namespaces/default/controllerrevisions';
const setNames = ['web', 'db'] as const;
type SetName = (typeof setNames)[number];
const neverReady = 'sim.platform.io/never-ready';
const failAfter = 'sim.platform.io/fail-after';
const merge = { 'content-type': 'application/merge-patch+json' };

type Action =
  | { type: 'create'; set: SetName; parallel: boolean; replicas: number; claims: 'none' | 'Retain' | 'Delete'; minReadySeconds: number; start: number | null; maxUnavailable: number | string | null; partition: number }
  | { type: 'scale'; set: SetName; replicas: number }
  | { type: 'image'; set: SetName; version: number }
  | { type: 'partition'; set: SetName; partition: number }
  | { type: 'start'; set: SetName; start: number | null }
  | { type: 'minReady'; set: SetName; seconds: number }
  | { type: 'deleteSet'; set: SetName }
  | { type: 'ready'; set: SetName; ordinal: number; ready: boolean }
  | { type: 'neverReadyPod'; set: SetName; ordinal: number }
  | { type: 'deletePod'; set: SetName; ordinal: number }
  | { type: 'breakTemplate'; set: SetName; how: 'fail' | 'neverReady' | 'heal' }
  | { type: 'advance'; seconds: number };

const set = fc.constantFrom(...setNames);
const ordinal = fc.integer({ min: 0, max: 7 });

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    arbitrary: fc.record({
      type: fc.constant('create' as const),
      set,
      parallel: fc.boolean(),
      replicas: fc.integer({ min: 0, max: 5 }),
      claims: fc.constantFrom('none' as const, 'Retain' as const, 'Delete' as const),
      minReadySeconds: fc.constantFrom(0, 0, 2),
      start: fc.constantFrom(null, 0, 2),
      maxUnavailable: fc.constantFrom(null, 2, '50%'),
      partition: fc.constantFrom(0, 0, 2),
    }),
    weight: 2,
  },
  fc.record({ type: fc.constant('scale' as const), set, replicas: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ type: fc.constant('image' as const), set, version: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ type: fc.constant('partition' as const), set, partition: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ type: fc.constant('start' as const), set, start: fc.constantFrom(null, 0, 1, 3) }),
  fc.record({ type: fc.constant('minReady' as const), set, seconds: fc.constantFrom(0, 1, 3) }),
  { arbitrary: fc.record({ type: fc.constant('deleteSet' as const), set }), weight: 1 },
  { arbitrary: fc.record({ type: fc.constant('ready' as const), set, ordinal, ready: fc.boolean() }), weight: 2 },
  fc.record({ type: fc.constant('neverReadyPod' as const), set, ordinal }),
  { arbitrary: fc.record({ type: fc.constant('deletePod' as const), set, ordinal }), weight: 2 },
  fc.record({ type: fc.constant('breakTemplate' as const), set, how: fc.constantFrom('fail' as const, 'neverReady' as const, 'heal' as const) }),
  { arbitrary: fc.record({ type: fc.constant('advance' as const), seconds: fc.integer({ min: 0, max: 8 }) }), weight: 4 },
);

async function get(s: Simulation, path: string): Promise<Body | undefined> {
  const res = await s.request({ method: 'GET', path });
  return res.status === 200 ? (res.body as Body) : undefined;
}

async function patch(s: Simulation, path: string, body: Body): Promise<number> {
  return (await s.request({ method: 'PATCH', path, headers: merge, body: JSON.stringify(body) })).status;
}

function setBody(a: Action & { type: 'create' }): Body {
  const rollingUpdate: Body = { partition: a.partition, ...(a.maxUnavailable === null ? {} : { maxUnavailable: a.maxUnavailable }) };
  return {
    metadata: { name: a.set },
    spec: {
      replicas: a.replicas,
      serviceName: a.set,
      selector: { matchLabels: { app: a.set } },
      podManagementPolicy: a.parallel ? 'Parallel' : 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate },
      minReadySeconds: a.minReadySeconds,
      ...(a.start === null ? {} : { ordinals: { start: a.start } }),
      template: { metadata: { labels: { app: a.set } }, spec: { containers: [{ name: 'app', image: 'app:1' }] } },
      ...(a.claims === 'none' ? {} : { persistentVolumeClaimRetentionPolicy: { whenScaled: a.claims, whenDeleted: 'Retain' } }),
      ...(a.claims !== 'none' ? { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] } : {}),
    },
  };
}

const isReady = (p: Body): boolean => p.status?.phase === 'Running' && (p.status.conditions ?? []).some((c: Body) => c.type === 'Ready' && c.status === 'True');

/** The kubelet's status write: Ready and ContainersReady flipped, their transition time now. */
async function flipReady(s: Simulation, name: string, ready: boolean): Promise<void> {
  const pod = await get(s, `${podsPath}/${name}`);
  if (pod === undefined || pod.status?.phase !== 'Running') return;
  const now = s.now();
  const conditions = (pod.status.conditions ?? []).map((c: Body) => {
    if (c.type !== 'Ready' && c.type !== 'ContainersReady') return c;
    const status = ready ? 'True' : 'False';
    return c.status === status ? c : { ...c, status, lastTransitionTime: now };
  });
  await s.request({ method: 'PUT', path: `${podsPath}/${name}/status`, body: { ...pod, status: { ...pod.status, conditions } } });
}

async function run(s: Simulation, a: Action): Promise<void> {
  switch (a.type) {
    case 'create': {
      const res = await s.request({ method: 'POST', path: setsPath, body: setBody(a) });
      // 409 while a set of that name exists, or is still being deleted.
      expect([201, 409], JSON.stringify(res.body)).toContain(res.status);
      return;
    }
    case 'scale':
      await patch(s, `${setsPath}/${a.set}`, { spec: { replicas: a.replicas } });
      return;
    case 'image':
      await patch(s, `${setsPath}/${a.set}`, { spec: { template: { spec: { containers: [{ name: 'app', image: `app:${a.version}` }] } } } });
      return;
    case 'partition':
      await patch(s, `${setsPath}/${a.set}`, { spec: { updateStrategy: { rollingUpdate: { partition: a.partition } } } });
      return;
    case 'start':
      await patch(s, `${setsPath}/${a.set}`, { spec: { ordinals: a.start === null ? null : { start: a.start } } });
      return;
    case 'minReady':
      await patch(s, `${setsPath}/${a.set}`, { spec: { minReadySeconds: a.seconds } });
      return;
    case 'deleteSet':
      await s.request({ method: 'DELETE', path: `${setsPath}/${a.set}` });
      return;
    case 'ready':
      await flipReady(s, `${a.set}-${a.ordinal}`, a.ready);
      return;
    case 'neverReadyPod':
      await patch(s, `${podsPath}/${a.set}-${a.ordinal}`, { metadata: { annotations: { [neverReady]: 'true' } } });
      return;
    case 'deletePod':
      await s.request({ method: 'DELETE', path: `${podsPath}/${a.set}-${a.ordinal}` });
      return;
    case 'breakTemplate': {
      const annotations = a.how === 'fail' ? { [failAfter]: '3s' } : a.how === 'neverReady' ? { [neverReady]: 'true' } : { [failAfter]: null, [neverReady]: null };
      await patch(s, `${setsPath}/${a.set}`, { spec: { template: { metadata: { annotations } } } });
      return;
    }
    case 'advance':
      await s.advance(`${a.seconds}s`);
  }
}

const broken = (annotations: Body | undefined): boolean => annotations?.[neverReady] === 'true' || annotations?.[failAfter] !== undefined;

/**
 * A user's repair: healthy templates; partition 0 when the pods below it would come back broken
 * (the current revision's template is); every stuck pod (failed, marked never-ready, going to
 * fail, or not ready long after its creation) deleted so that it comes back healthy.
 */
async function heal(s: Simulation, name: SetName, patched: boolean): Promise<void> {
  const set = await get(s, `${setsPath}/${name}`);
  if (set === undefined) return;
  if (!patched) await patch(s, `${setsPath}/${name}`, { spec: { template: { metadata: { annotations: { [failAfter]: null, [neverReady]: null } } } } });
  const current = set.status?.currentRevision === undefined ? undefined : await get(s, `${revisionsPath}/${set.status.currentRevision}`);
  if ((set.spec.updateStrategy.rollingUpdate?.partition ?? 0) > 0 && broken(current?.data?.spec?.template?.metadata?.annotations)) {
    await patch(s, `${setsPath}/${name}`, { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } });
  }
  const now = Date.parse(s.now());
  for (const pod of ((await get(s, `${podsPath}?labelSelector=app%3D${name}`))?.items ?? []) as Body[]) {
    if (pod.metadata.deletionTimestamp !== undefined) continue;
    const stuck = pod.status?.phase === 'Failed' || broken(pod.metadata.annotations) || (!isReady(pod) && now - Date.parse(pod.metadata.creationTimestamp) > 5000);
    if (stuck) await s.request({ method: 'DELETE', path: `${podsPath}/${pod.metadata.name}` });
  }
}

/** What a converged set looks like; the differences, as sentences. */
async function divergence(s: Simulation, name: SetName): Promise<string[]> {
  const set = await get(s, `${setsPath}/${name}`);
  if (set === undefined) return [];
  const st = set.status ?? {};
  const replicas = set.spec.replicas as number;
  const start = (set.spec.ordinals?.start ?? 0) as number;
  const partition = (set.spec.updateStrategy.rollingUpdate?.partition ?? 0) as number;
  const out: string[] = [];
  const want = (what: string, got: unknown, wanted: unknown): void => {
    if (got !== wanted) out.push(`${name}: ${what} is ${JSON.stringify(got)}, want ${JSON.stringify(wanted)}`);
  };
  want('observedGeneration', st.observedGeneration, set.metadata.generation);
  want('status.replicas', st.replicas ?? 0, replicas);
  want('readyReplicas', st.readyReplicas ?? 0, replicas);
  want('availableReplicas', st.availableReplicas ?? 0, replicas);
  if (partition === 0) {
    want('updatedReplicas', st.updatedReplicas ?? 0, replicas);
    want('currentRevision', st.currentRevision, st.updateRevision);
  }
  const pods = ((await get(s, `${podsPath}?labelSelector=app%3D${name}`))?.items ?? []) as Body[];
  const names = pods.map((p) => p.metadata.name as string).sort();
  const wanted = Array.from({ length: replicas }, (_, i) => `${name}-${start + i}`).sort();
  want('pods', names.join(' '), wanted.join(' '));
  for (const p of pods) {
    const index = Number(p.metadata.name.split('-').at(-1)) - start;
    if (index >= partition) want(`${p.metadata.name} revision`, p.metadata.labels['controller-revision-hash'], st.updateRevision);
    if (!isReady(p)) out.push(`${name}: ${p.metadata.name} is not ready`);
  }
  return out;
}

describe('StatefulSet controller, model-based', () => {
  it('keeps the invariants under random changes, and converges once healed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 1000 }), fc.boolean(), async (actions, seed, seeded) => {
        // A seeded schedule runs the controllers of each settle round in an order drawn from the seed.
        const s = await sim({ podReadyAfter: '1s', seed, schedule: seeded ? 'seeded' : 'fixed' });
        for (const a of actions) await run(s, a);
        // Liveness: heal, then give every set bounded virtual time to converge.
        for (const name of setNames) await heal(s, name, false);
        let left: string[] = [];
        for (let round = 0; round < 12; round++) {
          await s.advance('15s');
          for (const name of setNames) await heal(s, name, true);
          await s.advance('15s');
          left = (await Promise.all(setNames.map((n) => divergence(s, n)))).flat();
          if (left.length === 0) break;
        }
        expect(left, 'not converged after healing and 6 minutes').toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
