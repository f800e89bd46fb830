/**
 * Server-side apply: create, merge by list/map type, ownership (shared, forced, removed when no
 * longer applied), conflicts with the exact upstream messages, and the 400s of bad bodies.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ManagedFieldsEntry } from '../../../src/api/meta.ts';
import type { JsonObject, JsonValue } from '../../../src/core/json.ts';
import type { ApiError } from '../../../src/core/status.ts';
import { pathsOf } from '../../../src/store/apply/fieldSet.ts';
import { fromFieldsV1 } from '../../../src/store/apply/fieldsV1.ts';
import { recordUpdate } from '../../../src/store/apply/managedFields.ts';
import { pathString } from '../../../src/store/apply/pathString.ts';
import { serverSideApply, type ServerSideApplyInput } from '../../../src/store/apply/serverSideApply.ts';
import { saSchema, stsSchema } from './schemas.ts';

const t = (minute: number): string => `2026-01-01T00:${String(minute).padStart(2, '0')}:00Z`;

const saConfig = (extra: JsonObject = {}, meta: JsonObject = {}): JsonObject => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa', ...meta }, ...extra });
const stsConfig = (spec: JsonObject, extra: JsonObject = {}): JsonObject => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web' }, spec, ...extra });

type Opts = Partial<Omit<ServerSideApplyInput, 'live' | 'applied'>>;

function apply(live: JsonObject | null, applied: JsonObject, opts: Opts = {}): JsonObject {
  const r = tryApply(live, applied, opts);
  if (!r.ok) throw new Error(r.error.status.message);
  return r.object;
}

function tryApply(live: JsonObject | null, applied: JsonObject, opts: Opts = {}) {
  const sts = applied['kind'] === 'StatefulSet';
  return serverSideApply({
    live,
    applied,
    manager: 'kubectl',
    apiVersion: sts ? 'apps/v1' : 'v1',
    force: false,
    time: t(0),
    schema: sts ? stsSchema : saSchema,
    ...(sts ? { resetFields: ['status'] } : {}),
    ...opts,
  });
}

function applyError(live: JsonObject | null, applied: JsonObject, opts: Opts = {}): ApiError {
  const r = tryApply(live, applied, opts);
  if (r.ok) throw new Error('expected an error');
  return r.error;
}

/** A non-apply write (PUT) by `manager` that replaces the object's body. */
function put(live: JsonObject, updated: JsonObject, manager: string, time: string, opts: { subresource?: string } = {}): JsonObject {
  const sts = updated['kind'] === 'StatefulSet';
  const merged = { ...updated, metadata: { ...(updated['metadata'] as JsonObject), managedFields: (live['metadata'] as JsonObject)['managedFields'] ?? null } } as JsonObject;
  const managedFields = recordUpdate({
    live,
    updated: merged,
    manager,
    apiVersion: sts ? 'apps/v1' : 'v1',
    time,
    schema: sts ? stsSchema : saSchema,
    statusReset: sts && opts.subresource === undefined,
    ...opts,
  });
  return { ...merged, metadata: { ...(merged['metadata'] as JsonObject), managedFields: managedFields as unknown as JsonValue[] } };
}

const mf = (o: JsonObject): ManagedFieldsEntry[] => ((o['metadata'] as JsonObject)['managedFields'] ?? []) as unknown as ManagedFieldsEntry[];
const entry = (o: JsonObject, manager: string): ManagedFieldsEntry | undefined => mf(o).find((e) => e.manager === manager);
const owned = (e: ManagedFieldsEntry | undefined): string[] => pathsOf(fromFieldsV1(e?.fieldsV1 ?? {})).map(pathString);
const body = (o: JsonObject): JsonObject => {
  const { managedFields: _m, ...meta } = o['metadata'] as JsonObject;
  return { ...o, metadata: meta };
};

describe('apply creates', () => {
  it('creates the object with one Apply entry for the applier', () => {
    const r = tryApply(null, saConfig({ secrets: [{ name: 's1' }] }, { labels: { app: 'web' } }));
    expect(r).toEqual({
      ok: true,
      created: true,
      object: {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: {
          name: 'sa',
          labels: { app: 'web' },
          managedFields: [
            {
              manager: 'kubectl',
              operation: 'Apply',
              apiVersion: 'v1',
              time: t(0),
              fieldsType: 'FieldsV1',
              fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:secrets': { 'k:{"name":"s1"}': { '.': {}, 'f:name': {} } } },
            },
          ],
        },
        secrets: [{ name: 's1' }],
      },
    });
  });

  it('neither applies nor owns a reset status', () => {
    const o = apply(null, stsConfig({ replicas: 2 }, { status: { replicas: 9 } }));
    expect(o['status']).toBeUndefined();
    expect(owned(entry(o, 'kubectl'))).toEqual(['.spec.replicas']);
  });

  it('records the subresource in the entry of a subresource apply', () => {
    const live = apply(null, stsConfig({ replicas: 2 }));
    const o = apply(live, stsConfig({}, { status: { replicas: 2 } }), { manager: 'ctrl', subresource: 'status', resetFields: ['spec'], time: t(1) });
    expect(entry(o, 'ctrl')).toEqual({ manager: 'ctrl', operation: 'Apply', apiVersion: 'apps/v1', time: t(1), fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:replicas': {} } }, subresource: 'status' });
    expect(o['spec']).toEqual({ replicas: 2 });
  });
});

describe('apply merges by schema', () => {
  it('merges list-map `secrets` by name: live items keep their place, applied items follow the applied order', () => {
    const live = put(apply(null, saConfig({ automountServiceAccountToken: true })), saConfig({ automountServiceAccountToken: true, secrets: [{ name: 's1' }, { name: 's2' }] }), 'editor', t(1));
    const o = apply(live, saConfig({ automountServiceAccountToken: true, secrets: [{ name: 's3' }, { name: 's1', namespace: 'other' }] }), { time: t(2) });
    expect(o['secrets']).toEqual([{ name: 's3' }, { name: 's1', namespace: 'other' }, { name: 's2' }]);
    expect(owned(entry(o, 'kubectl'))).toEqual([
      '.automountServiceAccountToken',
      '.secrets[name="s1"]',
      '.secrets[name="s3"]',
      '.secrets[name="s1"].name',
      '.secrets[name="s1"].namespace',
      '.secrets[name="s3"].name',
    ]);
    expect(owned(entry(o, 'editor'))).toEqual(['.secrets', '.secrets[name="s1"]', '.secrets[name="s2"]', '.secrets[name="s1"].name', '.secrets[name="s2"].name']);
  });

  it('replaces the atomic `imagePullSecrets` wholesale and owns it as one field', () => {
    const live = apply(null, saConfig({ imagePullSecrets: [{ name: 'r1' }, { name: 'r2' }] }));
    const o = apply(live, saConfig({ imagePullSecrets: [{ name: 'r3' }] }), { time: t(1) });
    expect(o['imagePullSecrets']).toEqual([{ name: 'r3' }]);
    expect(entry(o, 'kubectl')!.fieldsV1).toEqual({ 'f:imagePullSecrets': {} });
    // Any change to an atomic list conflicts on the list itself.
    expect(applyError(o, saConfig({ imagePullSecrets: [{ name: 'r3' }, { name: 'r4' }] }), { manager: 'other' }).status.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl": .imagePullSecrets',
    );
  });

  it('unions sets, keeping live order and appending new values', () => {
    const live = apply(null, saConfig({}, { finalizers: ['a', 'b'] }), { manager: 'one' });
    const o = apply(live, saConfig({}, { finalizers: ['c', 'a'] }), { manager: 'two' });
    expect((o['metadata'] as JsonObject)['finalizers']).toEqual(['c', 'a', 'b']);
    expect(owned(entry(o, 'two'))).toEqual(['.metadata.finalizers[="a"]', '.metadata.finalizers[="c"]']);
    const finalizers = (live: string[], applied: string[]): JsonValue => {
      const l = apply(null, saConfig({}, { finalizers: live }), { manager: 'one' });
      return (apply(l, saConfig({}, { finalizers: applied }), { manager: 'two' })['metadata'] as JsonObject)['finalizers']!;
    };
    expect(finalizers(['a', 'b', 'c', 'g', 'f'], ['c', 'd', 'e', 'f'])).toEqual(['a', 'b', 'c', 'g', 'd', 'e', 'f']);
    expect(finalizers(['a', 'b', 'c', 'd'], ['d', 'e', 'f', 'a'])).toEqual(['b', 'c', 'd', 'e', 'f', 'a']);
    expect(finalizers(['x', 'y'], [])).toEqual(['x', 'y']);
  });

  it('merges structs and maps key by key and keeps live fields nobody applied', () => {
    const live = put(apply(null, stsConfig({ replicas: 1 })), stsConfig({ replicas: 1, serviceName: 'svc', template: { metadata: { labels: { a: '1' } } } }), 'editor', t(1));
    const o = apply(live, stsConfig({ replicas: 1, template: { metadata: { labels: { b: '2' } } } }), { time: t(2) });
    expect(o['spec']).toEqual({ replicas: 1, serviceName: 'svc', template: { metadata: { labels: { a: '1', b: '2' } } } });
  });

  it('accepts anything in an `any` field and owns it as one value', () => {
    const o = apply(null, stsConfig({ extra: { free: ['form', { x: 1 }] } }));
    expect((o['spec'] as JsonObject)['extra']).toEqual({ free: ['form', { x: 1 }] });
    expect(owned(entry(o, 'kubectl'))).toEqual(['.spec.extra']);
  });

  it('owns nothing for an empty granular list, which therefore stays when no longer applied', () => {
    const live = apply(null, saConfig({ secrets: [] }));
    expect(mf(live)).toEqual([]);
    expect(body(apply(live, saConfig(), { time: t(1) }))['secrets']).toEqual([]);
  });

  it('owns explicit nulls but does not store them', () => {
    const live = apply(null, saConfig({ automountServiceAccountToken: true }), { manager: 'one' });
    const o = apply(live, saConfig({ automountServiceAccountToken: null }), { manager: 'two', force: true, time: t(1) });
    expect(o).not.toHaveProperty('automountServiceAccountToken');
    expect(owned(entry(o, 'two'))).toEqual(['.automountServiceAccountToken']);
  });
});

describe('ownership', () => {
  it('shares a field applied with the same value, without conflict', () => {
    const live = apply(null, saConfig({}, { labels: { app: 'web' } }), { manager: 'one' });
    const o = apply(live, saConfig({}, { labels: { app: 'web' } }), { manager: 'two', time: t(1) });
    expect(owned(entry(o, 'one'))).toEqual(['.metadata.labels.app']);
    expect(owned(entry(o, 'two'))).toEqual(['.metadata.labels.app']);
  });

  it('shares with an Update owner too', () => {
    const live = put(apply(null, stsConfig({ replicas: 1 }), { manager: 'creator' }), stsConfig({ replicas: 3 }), 'kube-controller', t(1));
    const o = apply(live, stsConfig({ replicas: 3 }), { time: t(2) });
    expect(owned(entry(o, 'kube-controller'))).toEqual(['.spec.replicas']);
    expect(owned(entry(o, 'kubectl'))).toEqual(['.spec.replicas']);
  });

  it('removes a field the applier stops applying when nobody else owns it', () => {
    const live = apply(null, saConfig({ secrets: [{ name: 's1' }, { name: 's2' }], automountServiceAccountToken: true }, { labels: { a: '1', b: '2' } }));
    const o = apply(live, saConfig({ secrets: [{ name: 's1' }] }, { labels: { a: '1' } }), { time: t(1) });
    expect(body(o)).toEqual(saConfig({ secrets: [{ name: 's1' }] }, { labels: { a: '1' } }));
    const none = apply(o, saConfig(), { time: t(2) });
    expect(body(none)).toEqual(saConfig());
    expect(mf(none)).toEqual([]);
  });

  it('removes a struct whole when its owned fields all go', () => {
    const live = apply(null, stsConfig({ replicas: 1, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }));
    const o = apply(live, stsConfig({ replicas: 1, updateStrategy: { type: 'RollingUpdate' } }), { time: t(1) });
    expect(o['spec']).toEqual({ replicas: 1, updateStrategy: { type: 'RollingUpdate' } });
  });

  it('keeps a field the applier stops applying when another manager co-owns it', () => {
    const first = apply(null, saConfig({}, { labels: { a: '1', b: '2' } }), { manager: 'one' });
    const shared = apply(first, saConfig({}, { labels: { b: '2' } }), { manager: 'two', time: t(1) });
    const o = apply(shared, saConfig({}, { labels: { a: '1' } }), { manager: 'one', time: t(2) });
    expect((o['metadata'] as JsonObject)['labels']).toEqual({ a: '1', b: '2' });
    expect(owned(entry(o, 'one'))).toEqual(['.metadata.labels.a']);
    expect(owned(entry(o, 'two'))).toEqual(['.metadata.labels.b']);
  });

  it('keeps a field an Update manager co-owns', () => {
    const first = apply(null, saConfig({ automountServiceAccountToken: true }, { labels: { a: '1' } }));
    const edited = put(first, saConfig({ automountServiceAccountToken: true }, { labels: { a: '2' } }), 'editor', t(1));
    const o = apply(edited, saConfig({ automountServiceAccountToken: true }), { time: t(2) });
    expect((o['metadata'] as JsonObject)['labels']).toEqual({ a: '2' });
  });

  it('force takes the conflicting fields; an owner left empty is dropped', () => {
    const created = apply(null, stsConfig({ replicas: 1, serviceName: 's' }), { manager: 'creator' });
    const live = put(created, stsConfig({ replicas: 3, serviceName: 's' }), 'kube-controller', t(1));
    expect(applyError(live, stsConfig({ replicas: 5 }), { time: t(2) }).status.code).toBe(409);
    const o = apply(live, stsConfig({ replicas: 5 }), { force: true, time: t(2) });
    expect((o['spec'] as JsonObject)['replicas']).toBe(5);
    expect(mf(o).map((e) => [e.manager, e.operation, owned(e)])).toEqual([
      ['creator', 'Apply', ['.spec.serviceName']],
      ['kubectl', 'Apply', ['.spec.replicas']],
    ]);
  });

  it('updates the Apply entry time only when the object changes', () => {
    const live = apply(null, saConfig({}, { labels: { a: '1' } }));
    const again = apply(live, saConfig({}, { labels: { a: '1' } }), { time: t(5) });
    expect(again).toEqual(live);
    const changed = apply(live, saConfig({}, { labels: { a: '2' } }), { time: t(6) });
    expect(entry(changed, 'kubectl')!.time).toBe(t(6));
  });

  it('gives a new entry from a no-op apply no time, as upstream', () => {
    const live = apply(null, saConfig({}, { labels: { a: '1' } }), { manager: 'one' });
    const o = apply(live, saConfig({}, { labels: { a: '1' } }), { manager: 'two', time: t(5) });
    expect(entry(o, 'two')).not.toHaveProperty('time');
    expect(mf(o).map((e) => e.manager)).toEqual(['two', 'one']);
  });

  it('keeps Apply entries before Update entries', () => {
    const live = put(apply(null, saConfig({}, { labels: { a: '1' } }), { time: t(3) }), saConfig({}, { labels: { a: '1', b: '1' } }), 'editor', t(1));
    expect(mf(live).map((e) => `${e.operation}:${e.manager}`)).toEqual(['Apply:kubectl', 'Update:editor']);
  });
});

describe('conflicts', () => {
  const controllerOwnsReplicas = (): JsonObject => put(apply(null, stsConfig({ replicas: 1, serviceName: 's' })), stsConfig({ replicas: 3, serviceName: 's' }), 'kube-controller', t(1));

  it('reports one conflict with an Update owner exactly', () => {
    expect(applyError(controllerOwnsReplicas(), stsConfig({ replicas: 5 }), { manager: 'other' })).toEqual({
      kind: 'ApiError',
      status: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Apply failed with 1 conflict: conflict with "kube-controller" using apps/v1: .spec.replicas',
        reason: 'Conflict',
        details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kube-controller" using apps/v1', field: '.spec.replicas' }] },
        code: 409,
      },
    });
  });

  it('reports several conflicts grouped by manager (sorted), Apply and Update owners', () => {
    let live = apply(null, stsConfig({ replicas: 1, serviceName: 's', template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1' }] } } }, { metadata: { name: 'web', labels: { app: 'web' } } }), { manager: 'a-applier' });
    live = put(live, stsConfig({ replicas: 3, serviceName: 's', template: { spec: { containers: [{ name: 'nginx', image: 'nginx:2' }] } } }, { metadata: { name: 'web', labels: { app: 'web' } } }), 'z-controller', t(1));
    const err = applyError(live, stsConfig({ replicas: 5, serviceName: 'other', template: { spec: { containers: [{ name: 'nginx', image: 'nginx:3' }] } } }, { metadata: { name: 'web', labels: { app: 'api' } } }), { manager: 'me' });
    expect(err.status.message).toBe(
      'Apply failed with 4 conflicts: conflicts with "a-applier":\n- .metadata.labels.app\n- .spec.serviceName\nconflicts with "z-controller" using apps/v1:\n- .spec.replicas\n- .spec.template.spec.containers[name="nginx"].image',
    );
    expect(err.status.details!.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "a-applier"', field: '.metadata.labels.app' },
      { reason: 'FieldManagerConflict', message: 'conflict with "a-applier"', field: '.spec.serviceName' },
      { reason: 'FieldManagerConflict', message: 'conflict with "z-controller" using apps/v1', field: '.spec.replicas' },
      { reason: 'FieldManagerConflict', message: 'conflict with "z-controller" using apps/v1', field: '.spec.template.spec.containers[name="nginx"].image' },
    ]);
    expect(err.status.code).toBe(409);
  });

  it('renders a subresource owner with its subresource', () => {
    const live = put(apply(null, stsConfig({ replicas: 1 })), stsConfig({ replicas: 1 }, { status: { replicas: 1 } }), 'sts-controller', t(1), { subresource: 'status' });
    const err = applyError(live, stsConfig({}, { status: { replicas: 2 } }), { manager: 'me', subresource: 'status', resetFields: ['spec'] });
    expect(err.status.message).toBe('Apply failed with 1 conflict: conflict with "sts-controller" with subresource "status" using apps/v1: .status.replicas');
    const applied = apply(live, stsConfig({}, { status: { readyReplicas: 1 } }), { manager: 'status-applier', subresource: 'status', resetFields: ['spec'] });
    const err2 = applyError(applied, stsConfig({}, { status: { readyReplicas: 2 } }), { manager: 'me', subresource: 'status', resetFields: ['spec'] });
    expect(err2.status.message).toBe('Apply failed with 1 conflict: conflict with "status-applier" with subresource "status": .status.readyReplicas');
  });

  it('conflicts on an atomic list as a whole, and on list-map elements by key', () => {
    const live = apply(null, saConfig({ imagePullSecrets: [{ name: 'r1' }], secrets: [{ name: 's1', namespace: 'a' }] }), { manager: 'one' });
    const err = applyError(live, saConfig({ imagePullSecrets: [{ name: 'r2' }], secrets: [{ name: 's1', namespace: 'b' }] }), { manager: 'two' });
    expect(err.status.message).toBe('Apply failed with 2 conflicts: conflicts with "one":\n- .imagePullSecrets\n- .secrets[name="s1"].namespace');
  });

  it('does not conflict with the applier’s own fields or on equal values', () => {
    const live = apply(null, stsConfig({ replicas: 1 }));
    expect(tryApply(live, stsConfig({ replicas: 2 }), { time: t(1) }).ok).toBe(true);
  });
});

describe('bad apply bodies', () => {
  it('refuses managedFields in the body', () => {
    expect(applyError(null, saConfig({}, { managedFields: [] }))).toEqual({
      kind: 'ApiError',
      status: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'metadata.managedFields must be nil', reason: 'BadRequest', code: 400 },
    });
    expect(tryApply(null, saConfig({}, { managedFields: null })).ok).toBe(true);
  });

  it('refuses fields not declared in the schema', () => {
    const err = applyError(null, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'applied' }, spec: { x: 1 } });
    expect(err.status).toMatchObject({ code: 400, reason: 'BadRequest', message: 'failed to create typed patch object (/applied; /v1, Kind=ServiceAccount): .spec: field not declared in schema' });
    const nested = applyError(null, { ...stsConfig({ template: { spec: { containers: [{ name: 'c', bogus: true }] } } }), metadata: { name: 'web', namespace: 'ns' } });
    expect(nested.status.message).toBe('failed to create typed patch object (ns/web; apps/v1, Kind=StatefulSet): .spec.template.spec.containers[name="c"].bogus: field not declared in schema');
    const two = applyError(null, saConfig({ secrets: [{ name: 's1', x: 1 }] }, { y: 1 }));
    expect(two.status.message).toBe('failed to create typed patch object (/sa; /v1, Kind=ServiceAccount): errors:\n  .metadata.y: field not declared in schema\n  .secrets[name="s1"].x: field not declared in schema');
  });

  it('refuses list items without keys, duplicate keys, and non-numbers for numbers', () => {
    expect(applyError(null, saConfig({ secrets: [{ namespace: 'x' }] })).status.message).toBe(
      'failed to create typed patch object (/sa; /v1, Kind=ServiceAccount): .secrets: element 0: associative list with keys has an element that omits all key fields ["name"] (and doesn\'t have default values for any key fields)',
    );
    expect(applyError(null, saConfig({ secrets: [{ name: 'a' }, { name: 'a' }] })).status.message).toBe(
      'failed to create typed patch object (/sa; /v1, Kind=ServiceAccount): .secrets: duplicate entries for key [name="a"]',
    );
    expect(applyError(null, stsConfig({ replicas: 'three' })).status.message).toBe(
      'failed to create typed patch object (/web; apps/v1, Kind=StatefulSet): .spec.replicas: expected numeric (int or float), got string',
    );
  });

  it('refuses a body of another version or kind', () => {
    expect(applyError(null, { ...saConfig(), apiVersion: 'v2' }).status.message).toBe('invalid object type: /v2, Kind=ServiceAccount');
    expect(applyError(null, { ...saConfig(), kind: 'Secret' }, { kind: 'ServiceAccount' }).status.message).toBe('invalid object type: /v1, Kind=Secret');
    expect(applyError(null, [] as unknown as JsonObject).status.message).toBe('error decoding YAML: json: cannot unmarshal array into Go value of type map[string]interface {}');
  });

  it('keeps `__proto__` keys as data', () => {
    const config = JSON.parse('{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"sa","labels":{"__proto__":"x"}}}') as JsonObject;
    const o = apply(null, config);
    const labels = (o['metadata'] as JsonObject)['labels'] as JsonObject;
    expect(Object.prototype.hasOwnProperty.call(labels, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
    expect(owned(entry(o, 'kubectl'))).toEqual(['.metadata.labels.__proto__']);
  });
});

const labelsArb = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), fc.constantFrom('1', '2'), { maxKeys: 4 });
const secretsArb = fc.uniqueArray(fc.constantFrom('s1', 's2', 's3', 's4'), { maxLength: 4 }).map((ns) => ns.map((name) => ({ name })));
const configArb = fc.record(
  {
    labels: labelsArb,
    secrets: secretsArb,
    imagePullSecrets: fc.array(fc.record({ name: fc.constantFrom('r1', 'r2') }), { minLength: 1, maxLength: 2 }),
    automountServiceAccountToken: fc.boolean(),
  },
  { requiredKeys: [] },
).map(({ labels, ...rest }) => saConfig(rest as JsonObject, labels === undefined || Object.keys(labels).length === 0 ? {} : { labels }));

describe('apply properties', () => {
  it('applying the same configuration twice changes nothing', () => {
    fc.assert(
      fc.property(configArb, configArb, (c1, c2) => {
        const once = apply(apply(null, c1, { manager: 'other' }), c2, { force: true, time: t(1) });
        const twice = apply(once, c2, { force: true, time: t(2) });
        expect(twice).toEqual(once);
      }),
    );
  });

  it('a sole applier ends with exactly its latest configuration', () => {
    fc.assert(
      fc.property(configArb, configArb, (c1, c2) => {
        const o = apply(apply(null, c1), c2, { time: t(1) });
        // An empty granular list owns nothing (as upstream), so `secrets: []` may outlive it.
        const sorted = (x: JsonValue | undefined): unknown => (Array.isArray(x) ? (x.length === 0 ? undefined : [...x].map((v) => JSON.stringify(v)).sort()) : x);
        const b = body(o);
        expect(sorted(b['secrets'])).toEqual(sorted(c2['secrets']));
        expect(b['imagePullSecrets']).toEqual(c2['imagePullSecrets']);
        expect(b['automountServiceAccountToken']).toEqual(c2['automountServiceAccountToken']);
        expect((b['metadata'] as JsonObject)['labels']).toEqual((c2['metadata'] as JsonObject)['labels']);
      }),
    );
  });
});
