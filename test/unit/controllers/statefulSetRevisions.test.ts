/** A StatefulSet's ControllerRevisions (src/controllers/stateful-set/revisions.ts, reference/statefulset.md §5). */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/api/meta.ts';
import { namesFor } from '../../../src/api/names.ts';
import { revisionLabel } from '../../../src/controllers/stateful-set/podLifecycle.ts';
import { fnv1_32, goMarshal } from '../../../src/controllers/stateful-set/revisionHash.ts';
import {
  equalRevisions,
  liveRevisionNames,
  newRevision,
  ownedRevisions,
  resolveRevisions,
  revisionData,
  revisionHash,
  revisionName,
  revisionsToPrune,
  setAtRevision,
} from '../../../src/controllers/stateful-set/revisions.ts';
import type { JsonObject } from '../../../src/core/json.ts';
import { createSimulation } from '../../../src/edges/simulation/create.ts';
import { putObject } from '../../../src/store/objects.ts';
import { emptyWorld, type World } from '../../../src/store/world.ts';

const names = namesFor('platform.io');
const hashLabel = names.controllerRevisionHashLabel;
const resource = 'apps/controllerrevisions';
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const world0 = emptyWorld('revisions', 0, { groupDomain: 'platform.io', compactionIntervalMs: 300_000, nodeAgent: false, podReadyAfterMs: 0 });

function template(image: string, extra: JsonObject = {}): JsonObject {
  return { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image }] }, ...extra };
}

function statefulSet(image: string, o: { status?: JsonObject; limit?: number; deleting?: boolean; name?: string } = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: o.name ?? 'web', namespace: 'default', uid: 'set-uid', annotations: { note: 'n' }, ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: template(image), revisionHistoryLimit: o.limit ?? 10 },
    status: o.status ?? {},
  };
}

function stored(r: KubeObject, extra: { uid?: string; created?: string; owner?: string | null; labels?: Record<string, string>; namespace?: string } = {}): KubeObject {
  const owner = extra.owner === undefined ? r.metadata.ownerReferences : extra.owner === null ? undefined : [{ ...r.metadata.ownerReferences![0]!, uid: extra.owner }];
  const { ownerReferences: _, ...meta } = r.metadata;
  return {
    ...r,
    metadata: {
      ...meta,
      namespace: extra.namespace ?? 'default',
      uid: extra.uid ?? `uid-${r.metadata.name}`,
      resourceVersion: '5',
      creationTimestamp: extra.created ?? '2026-01-01T00:00:00Z',
      ...(extra.labels === undefined ? {} : { labels: extra.labels }),
      ...(owner === undefined ? {} : { ownerReferences: owner }),
    },
  };
}

function worldWith(...revisions: KubeObject[]): World {
  return revisions.reduce((w, r) => putObject(w, resource, r.metadata.namespace!, r.metadata.name!, r), world0);
}

const at = (set: KubeObject, number: number, count = 0): KubeObject => stored(newRevision(set, names, count, number));
const nameOf = (o: KubeObject): string => o.metadata.name!;

describe('revision hash', () => {
  const data = revisionData(statefulSet('nginx:1'));

  it('is FNV-1 (not 1a) over the data and the collision count, digits mapped to letters', () => {
    expect(fnv1_32(utf8(''))).toBe(0x811c9dc5);
    expect(fnv1_32(utf8('a'))).toBe(0x050c5d7e);
    expect(fnv1_32(utf8('foobar'))).toBe(0x31f0b262);
    const digits: Record<string, string> = { 0: '4', 1: '5', 2: '6', 3: '7', 4: '8', 5: '9', 6: 'b', 7: 'c', 8: 'd', 9: 'f' };
    const expected = [...String(fnv1_32(utf8(`${goMarshal(data)}0`)))].map((d) => digits[d]).join('');
    expect(revisionHash(data, 0)).toBe(expected);
    expect(revisionHash(data, 0)).toMatch(/^[4-9bcdf]{1,10}$/);
    expect(revisionHash(revisionData(statefulSet('nginx:1')), 0)).toBe(revisionHash(data, 0));
  });

  it('changes with the collision count and with the template', () => {
    expect(revisionHash(data, 1)).not.toBe(revisionHash(data, 0));
    expect(revisionHash(revisionData(statefulSet('nginx:2')), 0)).not.toBe(revisionHash(data, 0));
  });

  it('hashes the bytes Go would write: sorted keys, HTML and line-separator escapes', () => {
    const odd = { b: '<a & b>', a: '\u2028\u2029', '\u{1F600}': 1, '\uffff': -0, c: ['\ud800', 1.5, true, null] } as JsonObject;
    const go = '{"a":"\\u2028\\u2029","b":"\\u003ca \\u0026 b\\u003e","c":["\ufffd",1.5,true,null],"\uffff":-0,"\u{1F600}":1}';
    expect(goMarshal(odd)).toBe(go);
    const digits = 'bcdfghjklmnpqrstvwxz2456789';
    const expected = [...String(fnv1_32(utf8(`${go}12`)))].map((d) => digits[d.charCodeAt(0) % 27]).join('');
    expect(revisionHash(odd, 12)).toBe(expected);
  });
});

describe('revision object', () => {
  it('records the template as a replace patch, encoded as Go does (sorted keys, the zero creationTimestamp)', () => {
    const data = revisionData(statefulSet('nginx:1'));
    expect(data).toEqual({ spec: { template: { $patch: 'replace', metadata: { creationTimestamp: null, labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } } } });
    expect(JSON.stringify(data)).toBe('{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1","name":"app"}]}}}}');
  });

  it('names a revision after the set, cutting long names to 223 characters', () => {
    expect(revisionName('web', '7d8c5f4b69')).toBe('web-7d8c5f4b69');
    const long = 'a'.repeat(300);
    expect(revisionName(long, 'b4')).toBe(`${'a'.repeat(223)}-b4`);
  });

  it('builds the ControllerRevision to create', () => {
    const set = statefulSet('nginx:1');
    const hash = revisionHash(revisionData(set), 2);
    expect(newRevision(set, names, 2, 7)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: `web-${hash}`,
        namespace: 'default',
        labels: { app: 'web', 'controller.platform.io/hash': hash },
        annotations: { note: 'n' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'set-uid', controller: true, blockOwnerDeletion: true }],
      },
      data: revisionData(set),
      revision: 7,
    });
    expect(newRevision(set, namesFor('k8s.io'), 0, 1).metadata.labels).toHaveProperty(['controller.kubernetes.io/hash']);
  });
});

describe('listing', () => {
  it('keeps selected revisions the set controls or nothing controls, in history order', () => {
    const set = statefulSet('nginx:1');
    const base = newRevision(set, names, 0, 1);
    const mk = (name: string, number: number, extra: Parameters<typeof stored>[1] = {}) => stored({ ...base, metadata: { ...base.metadata, name }, revision: number }, extra);
    const w = worldWith(
      mk('r3', 3),
      mk('r1-late', 1, { created: '2026-01-01T00:00:09Z' }),
      mk('r1-b', 1),
      mk('r1-a', 1, { owner: null }),
      mk('other-owner', 0, { owner: 'someone-else' }),
      mk('unselected', 0, { labels: { app: 'db' } }),
      mk('elsewhere', 0, { namespace: 'prod' }),
    );
    expect(ownedRevisions(w, set).map(nameOf)).toEqual(['r1-a', 'r1-b', 'r1-late', 'r3']);
    expect(ownedRevisions(w, { ...set, spec: { ...(set['spec'] as JsonObject), selector: { matchLabels: { app: 'x' } } } })).toEqual([]);
  });
});

describe('resolution', () => {
  it('creates revision 1 for a new set', () => {
    const set = statefulSet('nginx:1');
    const r = resolveRevisions(world0, set, names);
    expect(r.update).toEqual(newRevision(set, names, 0, 1));
    expect(r.current).toBe(r.update);
    expect(r.collisionCount).toBe(0);
    expect(r.writes).toEqual([{ type: 'create', revision: r.update }]);
  });

  it('reuses the latest revision when the template is unchanged', () => {
    const set = statefulSet('nginx:2');
    const old = at(statefulSet('nginx:1'), 1);
    const latest = at(set, 2);
    const r = resolveRevisions(worldWith(old, latest), { ...set, status: { currentRevision: nameOf(old) } }, names);
    expect(r).toEqual({ current: old, update: latest, collisionCount: 0, writes: [] });
  });

  it('creates the next number when the template changed; current stays', () => {
    const old = at(statefulSet('nginx:1'), 4);
    const set = statefulSet('nginx:2', { status: { currentRevision: nameOf(old) } });
    const r = resolveRevisions(worldWith(old), set, names);
    expect(r.current).toBe(old);
    expect(r.update).toEqual(newRevision(set, names, 0, 5));
    expect(r.writes).toEqual([{ type: 'create', revision: r.update }]);
  });

  it('falls back to the update revision when the current one is gone', () => {
    const set = statefulSet('nginx:1', { status: { currentRevision: 'web-vanished' } });
    const r = resolveRevisions(worldWith(at(set, 1)), set, names);
    expect(r.current).toBe(r.update);
  });

  it('rolls back by renumbering the older equal revision, keeping its name', () => {
    const first = at(statefulSet('nginx:1'), 1);
    const second = at(statefulSet('nginx:2'), 2);
    const set = statefulSet('nginx:1', { status: { currentRevision: nameOf(second) } });
    const r = resolveRevisions(worldWith(first, second), set, names);
    expect(nameOf(r.update)).toBe(nameOf(first));
    expect(r.update).toEqual({ ...first, revision: 3 });
    expect(r.current).toBe(second);
    expect(r.writes).toEqual([{ type: 'renumber', revision: r.update, number: 3 }]);
  });

  it('raises the collision count when the name is taken by other data, and starts from status', () => {
    const set = statefulSet('nginx:1');
    const hash0 = revisionHash(revisionData(set), 0);
    const other = newRevision(statefulSet('other:1'), names, 0, 1);
    const squatter = stored({ ...other, metadata: { ...other.metadata, name: `web-${hash0}` } }, { owner: 'someone-else' });
    const r = resolveRevisions(worldWith(squatter), set, names);
    expect(r.collisionCount).toBe(1);
    expect(r.update).toEqual(newRevision(set, names, 1, 1));
    expect(nameOf(r.update)).toBe(`web-${revisionHash(revisionData(set), 1)}`);
    const again = resolveRevisions(worldWith(squatter), { ...set, status: { collisionCount: 1 } }, names);
    expect(again.collisionCount).toBe(1);
    expect(again.update).toEqual(r.update);
  });

  it('reuses an existing object with the same name and data', () => {
    const set = statefulSet('nginx:1');
    const foreign = stored(newRevision(set, names, 0, 9), { owner: 'someone-else' });
    const r = resolveRevisions(worldWith(foreign), set, names);
    expect(r).toEqual({ current: foreign, update: foreign, collisionCount: 0, writes: [] });
  });

  it('adopts orphans, and folds the adoption into a renumber', () => {
    const set = statefulSet('nginx:2');
    const orphan1 = stored(newRevision(statefulSet('nginx:1'), names, 0, 1), { owner: null });
    const orphan2 = stored(newRevision(set, names, 0, 2), { owner: null });
    const ref = newRevision(set, names, 0, 1).metadata.ownerReferences!;
    const r = resolveRevisions(worldWith(orphan1, orphan2), set, names);
    expect(r.writes).toEqual([
      { type: 'adopt', revision: { ...orphan1, metadata: { ...orphan1.metadata, ownerReferences: ref } } },
      { type: 'adopt', revision: { ...orphan2, metadata: { ...orphan2.metadata, ownerReferences: ref } } },
    ]);
    expect(r.update).toEqual(r.writes[1]!.revision);
    const back = resolveRevisions(worldWith(orphan1, orphan2), statefulSet('nginx:1'), names);
    expect(back.writes).toEqual([
      { type: 'adopt', revision: { ...orphan2, metadata: { ...orphan2.metadata, ownerReferences: ref } } },
      { type: 'renumber', revision: { ...orphan1, metadata: { ...orphan1.metadata, ownerReferences: ref }, revision: 3 }, number: 3 },
    ]);
    expect(resolveRevisions(worldWith(orphan1, orphan2), statefulSet('nginx:2', { deleting: true }), names).writes).toEqual([]);
  });
});

describe('equality', () => {
  const set = statefulSet('nginx:1');
  const a = newRevision(set, names, 0, 1);
  const withHash = (r: KubeObject, hash: string): KubeObject => ({ ...r, metadata: { ...r.metadata, labels: { [hashLabel]: hash } } });

  it('compares the recorded bytes, and the hash labels only when both read as int32 numbers', () => {
    expect(equalRevisions(a, newRevision(set, names, 5, 2), names)).toBe(true);
    expect(equalRevisions(a, newRevision(statefulSet('nginx:2'), names, 0, 1), names)).toBe(false);
    expect(equalRevisions(withHash(a, '45'), withHash(a, '46'), names)).toBe(false);
    expect(equalRevisions(withHash(a, '45'), withHash(a, '045'), names)).toBe(true);
    expect(equalRevisions(withHash(a, '45'), withHash(a, 'b4'), names)).toBe(true);
    expect(equalRevisions(withHash(a, '45'), withHash(a, '99999999999'), names)).toBe(true);
  });
});

describe('pruning', () => {
  const revs = [1, 2, 3, 4, 5].map((n) => at(statefulSet(`nginx:${n}`), n));
  const [r1, r2, r3, r4, r5] = revs as [KubeObject, KubeObject, KubeObject, KubeObject, KubeObject];
  const pod = (revision: string): KubeObject => ({ metadata: { name: 'web-0', labels: { [revisionLabel]: revision } } });

  it('keeps only live revisions with limit 0 and every one with a negative limit', () => {
    const live = liveRevisionNames(nameOf(r5), nameOf(r5), []);
    expect(revisionsToPrune(statefulSet('x', { limit: 0 }), revs, live).map(nameOf)).toEqual([r1, r2, r3, r4].map(nameOf));
    expect(revisionsToPrune(statefulSet('x', { limit: -1 }), revs, live)).toEqual([]);
  });

  it('keeps the newest n non-live revisions and never current, update or pod-labelled ones', () => {
    const live = liveRevisionNames(nameOf(r4), nameOf(r5), [pod(nameOf(r1))]);
    expect([...live].sort()).toEqual([r1, r4, r5].map(nameOf).sort());
    expect(revisionsToPrune(statefulSet('x', { limit: 1 }), [...revs].reverse(), live).map(nameOf)).toEqual([nameOf(r2)]);
    expect(revisionsToPrune(statefulSet('x', { limit: 2 }), revs, live)).toEqual([]);
  });
});

describe('applying a revision', () => {
  it('gives the live set with the recorded template', () => {
    const old = statefulSet('nginx:1');
    const live = { ...statefulSet('nginx:2'), spec: { ...(statefulSet('nginx:2')['spec'] as JsonObject), replicas: 5, template: template('nginx:2', { extra: 1 }) } };
    const applied = setAtRevision(live, newRevision(old, names, 0, 1));
    const recorded = template('nginx:1');
    expect(applied).toEqual({ ...live, spec: { ...live.spec, template: { ...recorded, metadata: { creationTimestamp: null, ...(recorded['metadata'] as JsonObject) } } } });
    expect(live.spec.template).toEqual(template('nginx:2', { extra: 1 }));
  });

  it('restores a template wholesale through a strategic merge patch, as kubectl rollout undo does', async () => {
    const s = await createSimulation({ seed: 1, startTime: '2026-01-01T00:00:00Z', checkInvariants: true, settle: 'manual' });
    const path = '/apis/apps/v1/namespaces/default/statefulsets';
    const body = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web' }, spec: statefulSet('nginx:1')['spec'] as JsonObject };
    const created = await s.request({ method: 'POST', path, body });
    expect(created.status).toBe(201);
    const first = created.body as KubeObject;
    const smp = { 'content-type': 'application/strategic-merge-patch+json' };
    const changed = {
      spec: {
        template: {
          metadata: { labels: { tier: 'front' }, annotations: { a: 'b' } },
          spec: { containers: [{ name: 'app', image: 'nginx:2', env: [{ name: 'X', value: '1' }] }, { name: 'side', image: 'busybox' }] },
        },
      },
    };
    const second = await s.request({ method: 'PATCH', path: `${path}/web`, headers: smp, body: changed });
    expect(second.status).toBe(200);
    expect((second.body as { spec: JsonObject }).spec['template']).not.toEqual((first as { spec?: JsonObject }).spec?.['template']);
    const templateOf = (res: { body: unknown }): { metadata: JsonObject; spec: { containers: JsonObject[] } } => (res.body as { spec: { template: never } }).spec.template;
    // Without the directive the recorded template would only merge in: the new fields stay.
    const { $patch: _, ...merged } = (revisionData(first)['spec'] as { template: JsonObject }).template;
    const mergedOnly = await s.request({ method: 'PATCH', path: `${path}/web?dryRun=All`, headers: smp, body: { spec: { template: merged } } });
    expect(templateOf(mergedOnly).metadata['labels']).toEqual({ app: 'web', tier: 'front' });
    const undone = await s.request({ method: 'PATCH', path: `${path}/web`, headers: smp, body: revisionData(first) });
    expect(undone.status).toBe(200);
    const restored = templateOf(undone);
    expect(restored).toEqual((first as { spec?: JsonObject }).spec?.['template']);
    expect(restored.metadata).toEqual({ labels: { app: 'web' } });
    expect(restored.spec.containers.map((c) => [c['name'], c['image'], c['env']])).toEqual([['app', 'nginx:1', undefined]]);
  });
});
