/**
 * The timelines of docs/statefulset.md: each picture is a scenario run here and drawn with
 * renderTimeline (one row per ordinal, the life line coloured by the pod's revision or readiness),
 * saved as docs/timelines/<name>.svg. The scenario also checks the story the chapter tells about
 * it. A behaviour change that moves a picture fails here;
 * `UPDATE_DOCS=1 npx vitest run test/docs/statefulsetTimelines.test.ts` redraws them.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSimulation, renderTimeline, type KubeObject, type LifeStyle, type Simulation, type TimelineNote, type TimelineWrite } from '../../src/index.ts';

const dir = join(import.meta.dirname, '..', '..', 'docs', 'timelines');
const update = process.env['UPDATE_DOCS'] === '1';

const sets = '/apis/apps/v1/namespaces/default/statefulsets';
const pods = '/api/v1/namespaces/default/pods';
const mergePatch = { 'content-type': 'application/merge-patch+json' };

type Body = Record<string, any>;

/** A StatefulSet `web` of nginx pods that become Ready `readyAfter` after creation. */
function web(spec: Body, readyAfter = '10s', annotations: Record<string, string> = {}): Body {
  return {
    metadata: { name: 'web' },
    spec: {
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' }, annotations: { 'sim.platform.io/ready-after': readyAfter, ...annotations } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
      },
      ...spec,
    },
  };
}

/** A running scenario: the simulation, every pod and set state by resourceVersion (from watches), the user's moves. */
class Scene {
  readonly #moves: TimelineNote[] = [];
  readonly #states = new Map<number, KubeObject>();
  readonly #watches;

  constructor(readonly sim: Simulation) {
    this.#watches = [sim.watch(pods), sim.watch(sets)];
  }

  static async start(): Promise<Scene> {
    return new Scene(await createSimulation({ seed: 1, startTime: '2026-01-01T00:00:00Z', checkInvariants: true }));
  }

  /** Virtual time moves on to `seconds` after the start. */
  async at(seconds: number): Promise<void> {
    const ms = Date.parse(this.sim.now()) - Date.parse('2026-01-01T00:00:00Z');
    await this.sim.advance(`${seconds * 1000 - ms}ms`);
  }

  /** A request that must succeed, labelled `note` in the picture; a PATCH is a merge patch unless `headers` say otherwise. */
  async request(method: string, path: string, body?: Body, note?: string, headers: Record<string, string> = method === 'PATCH' ? mergePatch : {}): Promise<Body> {
    const res = await this.sim.request({ method, path, ...(body === undefined ? {} : { body }), headers });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    if (note !== undefined) this.#moves.push({ at: this.sim.now(), text: note });
    return res.body as Body;
  }

  /** The state an object had after a write. */
  state(w: TimelineWrite): KubeObject | undefined {
    for (const watch of this.#watches) for (const e of watch.drain()) if (e.type !== 'ERROR') this.#states.set(Number(e.object.metadata.resourceVersion), e.object);
    return this.#states.get(w.rv);
  }

  /** The user's moves, and the moments the set's status.currentRevision rolled forward. */
  notes(): TimelineNote[] {
    const out = [...this.#moves];
    let current = '';
    for (const w of this.sim.trace()) {
      if (w.type !== 'write' || w.resource !== 'apps/statefulsets' || w.change === 'DELETED') continue;
      const next = ((this.state(w)?.['status'] as Body | undefined)?.['currentRevision'] as string | undefined) ?? '';
      if (current !== '' && next !== current) out.push({ at: w.at, text: `currentRevision rolls forward to ${next}` });
      current = next;
    }
    return out.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  }

  /** A merge patch of the set's spec, labelled `note`. */
  async patchSet(spec: Body, note: string): Promise<void> {
    await this.request('PATCH', `${sets}/web`, { spec }, note);
  }

  /** The pods now, by name: revision and Ready status (`Terminating` once deleted). */
  async members(): Promise<{ name: string; revision: string; ready: string }[]> {
    const list = (await this.sim.request({ method: 'GET', path: pods })).body as Body;
    return (list.items as Body[]).map((p) => ({
      name: p.metadata.name,
      revision: p.metadata.labels['controller-revision-hash'],
      ready: p.metadata.deletionTimestamp === undefined ? (p.status.conditions?.find((c: Body) => c.type === 'Ready')?.status ?? '') : 'Terminating',
    }));
  }
}

const nginx128 = { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } } };

/** Creates `web` (pods Ready 10 s after creation) with a rolling update of its own; the image goes to nginx:1.28 at `seconds`. */
async function releaseAt(s: Scene, seconds: number, replicas: number, rollingUpdate: Body, note: string): Promise<void> {
  await s.request('POST', sets, web({ replicas, updateStrategy: { type: 'RollingUpdate', rollingUpdate } }), note);
  await s.at(seconds);
  await s.patchSet(nginx128, 'template: nginx:1.28');
}

/** A test's own write of web-1's Ready condition. */
async function web1Ready(s: Scene, status: 'True' | 'False', note: string): Promise<void> {
  await s.request('PATCH', `${pods}/web-1/status`, { status: { conditions: [{ type: 'Ready', status }] } }, note, { 'content-type': 'application/strategic-merge-patch+json' });
}

const ready = (pod: KubeObject): boolean => ((pod['status'] as Body | undefined)?.['conditions'] as Body[] | undefined)?.some((c) => c['type'] === 'Ready' && c['status'] === 'True') === true;

/** Readiness only: not ready dashed, ready solid, terminating orange. */
function byReadiness(scene: Scene): (w: TimelineWrite) => LifeStyle | undefined {
  return (w) => {
    const pod = scene.state(w);
    if (pod === undefined) return undefined;
    if (pod.metadata.deletionTimestamp !== undefined) return { color: '#e08a00', label: 'terminating', dashed: true };
    return ready(pod) ? { color: '#2e8b57', label: 'Ready' } : { color: '#999999', label: 'not Ready', dashed: true };
  };
}

const revisionColors = ['#7b4fa8', '#e08a00', '#1f8fa8'];

/** By revision (colour, named by revision and image), dashed while not Ready. */
function byRevision(scene: Scene): (w: TimelineWrite) => LifeStyle | undefined {
  const seen: string[] = [];
  return (w) => {
    const pod = scene.state(w);
    if (pod === undefined) return undefined;
    const revision = pod.metadata.labels?.['controller-revision-hash'] ?? '';
    if (!seen.includes(revision)) seen.push(revision);
    const image = ((pod['spec'] as Body)['containers'] as Body[])[0]!['image'] as string;
    const color = revisionColors[seen.indexOf(revision) % revisionColors.length]!;
    if (pod.metadata.deletionTimestamp !== undefined) return { color, label: `${revision} (${image}) terminating`, dashed: true };
    return ready(pod) ? { color, label: `${revision} (${image}) Ready` } : { color, label: `${revision} (${image}) not Ready`, dashed: true };
  };
}

interface Picture {
  readonly file: string;
  readonly title: string;
  readonly style: (scene: Scene) => (w: TimelineWrite) => LifeStyle | undefined;
  /** Plays the scenario and checks what the chapter says about it. */
  readonly play: (scene: Scene) => Promise<void>;
}

/** Scale-up halts behind an unready web-1 and resumes when it is Ready again. */
async function orderedReadyHalt(s: Scene): Promise<void> {
  await s.request('POST', sets, web({ replicas: 2 }), 'create: replicas 2');
  await s.at(30);
  await web1Ready(s, 'False', 'web-1 Ready False (a pods/status write)');
  await s.at(40);
  await s.patchSet({ replicas: 4 }, 'replicas 4');
  await s.at(70);
  expect((await s.members()).map((m) => m.name)).toEqual(['web-0', 'web-1']);
  await web1Ready(s, 'True', 'web-1 Ready True');
  await s.at(80);
  expect((await s.members()).map((m) => `${m.name} ${m.ready}`)).toEqual(['web-0 True', 'web-1 True', 'web-2 True', 'web-3 False']);
  await s.at(100);
}

/** Parallel: every pod at once, and every condemned pod at once. */
async function parallelBurst(s: Scene): Promise<void> {
  await s.request('POST', sets, web({ replicas: 5, podManagementPolicy: 'Parallel' }, '10s', { 'sim.platform.io/terminate-after': '10s' }), 'create: replicas 5, Parallel');
  expect(await s.members()).toHaveLength(5);
  await s.at(30);
  await s.patchSet({ replicas: 2 }, 'replicas 2');
  expect((await s.members()).filter((m) => m.ready === 'Terminating')).toHaveLength(3);
  await s.at(60);
}

/** A canary (partition 3), then partition 2, then 0. */
async function canaryThenPhased(s: Scene): Promise<void> {
  await releaseAt(s, 50, 4, { partition: 3 }, 'create: replicas 4, partition 3');
  await s.at(80);
  const revisions = async () => (await s.members()).map((m) => m.revision);
  const [old, , , canary] = await revisions();
  expect(await revisions()).toEqual([old, old, old, canary]);
  expect(canary).not.toBe(old);
  await s.patchSet({ updateStrategy: { rollingUpdate: { partition: 2 } } }, 'partition 2');
  await s.at(110);
  await s.patchSet({ updateStrategy: { rollingUpdate: { partition: 0 } } }, 'partition 0');
  await s.at(160);
  expect(await revisions()).toEqual([canary, canary, canary, canary]);
}

/** maxUnavailable 2 under OrderedReady. */
async function maxUnavailableTwo(s: Scene): Promise<void> {
  await releaseAt(s, 60, 5, { maxUnavailable: 2 }, 'create: replicas 5, maxUnavailable 2');
  // web-4 and web-3 deleted together; web-3 back at once, web-4 once web-3 is Ready.
  expect((await s.members()).map((m) => m.name)).toEqual(['web-0', 'web-1', 'web-2', 'web-3']);
  await s.at(120);
}

/** A release that never gets Ready; undo alone does not replace the stuck pod, deleting it does. */
async function stuckThenRolledBack(s: Scene): Promise<void> {
  await s.request('POST', sets, web({ replicas: 3 }), 'create: replicas 3');
  await s.at(40);
  await s.patchSet({ template: { ...nginx128.template, metadata: { annotations: { 'sim.platform.io/never-ready': 'true' } } } }, 'template: nginx:1.28, never Ready');
  await s.at(60);
  // kubectl rollout undo: the previous ControllerRevision's data as a strategic merge patch.
  const revisions = ((await s.request('GET', '/apis/apps/v1/namespaces/default/controllerrevisions')) as Body).items as Body[];
  const previous = revisions.sort((a, b) => a.revision - b.revision).at(-2)!;
  await s.request('PATCH', `${sets}/web`, previous.data, 'kubectl rollout undo', { 'content-type': 'application/strategic-merge-patch+json' });
  await s.at(80);
  // OrderedReady waits for the broken pod forever: it has to be deleted by hand.
  expect((await s.members())[2]).toMatchObject({ name: 'web-2', ready: 'False' });
  await s.request('DELETE', `${pods}/web-2`, undefined, 'kubectl delete pod web-2');
  await s.at(110);
  expect((await s.members()).map((m) => m.revision)).toEqual([previous.metadata.name, previous.metadata.name, previous.metadata.name]);
}

const pictures: Picture[] = [
  { file: 'ordered-ready-halt.svg', title: 'OrderedReady: scaling up halts while web-1 is not Ready', style: byReadiness, play: orderedReadyHalt },
  { file: 'parallel-burst.svg', title: 'Parallel: five pods at once, then three deleted at once (terminate-after 10s)', style: byReadiness, play: parallelBurst },
  { file: 'canary-partition.svg', title: 'A canary with partition 3, then a phased rollout: partition 2, then 0', style: byRevision, play: canaryThenPhased },
  { file: 'max-unavailable.svg', title: 'maxUnavailable 2: old pods go two at a time, come back one at a time (OrderedReady)', style: byRevision, play: maxUnavailableTwo },
  { file: 'rollback.svg', title: 'A release that never gets Ready, rolled back with kubectl rollout undo', style: byRevision, play: stuckThenRolledBack },
];

describe('StatefulSet timelines in docs/timelines', () => {
  for (const picture of pictures) {
    it(`draws ${picture.file}`, async () => {
      const scene = await Scene.start();
      await picture.play(scene);
      const svg = renderTimeline(scene.sim.trace(), { title: picture.title, resources: ['core/pods'], format: 'svg', lifeStyle: picture.style(scene), notes: scene.notes() });
      const path = join(dir, picture.file);
      const shown = existsSync(path) ? readFileSync(path, 'utf8') : '';
      if (shown === svg) return;
      if (update) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(path, svg);
        return;
      }
      throw new Error(`docs/timelines/${picture.file} is not what the scenario draws now: UPDATE_DOCS=1 npx vitest run test/docs/statefulsetTimelines.test.ts redraws it`);
    });
  }
});
