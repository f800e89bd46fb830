/**
 * Update bookkeeping of managedFields: ownership on create, fields moving between managers on
 * writes, entry identity (manager, apiVersion, subresource), timestamps, the ancient-changes
 * cap, sorting, and the managedFields a request may carry (clear, replace, ignored).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ManagedFieldsEntry } from '../../../src/api/meta.ts';
import type { JsonObject } from '../../../src/core/json.ts';
import { capUpdateOwners } from '../../../src/store/apply/capUpdateOwners.ts';
import { compareObjects, compareOwned } from '../../../src/store/apply/compareObjects.ts';
import { withoutUnowned } from '../../../src/store/apply/fieldSetOf.ts';
import { pathsOf } from '../../../src/store/apply/fieldSet.ts';
import { fromFieldsV1 } from '../../../src/store/apply/fieldsV1.ts';
import { recordUpdate } from '../../../src/store/apply/managedFields.ts';
import { decodeManagedFields, encodeManagedFields } from '../../../src/store/apply/managedFieldsCodec.ts';
import { ownerId, type Owner } from '../../../src/store/apply/owners.ts';
import { pathString } from '../../../src/store/apply/pathString.ts';
import { isResetRequest, requestedManagedFields } from '../../../src/store/apply/requestedManagedFields.ts';
import { saSchema, stsSchema } from './schemas.ts';

const t = (minute: number): string => `2026-01-01T00:${String(minute).padStart(2, '0')}:00Z`;

function sa(extra: JsonObject = {}, meta: JsonObject = {}): JsonObject {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa', namespace: 'default', uid: 'u1', ...meta }, ...extra };
}

function sts(spec: JsonObject, status: JsonObject | null = null, meta: JsonObject = {}): JsonObject {
  const o: JsonObject = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'default', generation: 1, ...meta }, spec };
  if (status !== null) o['status'] = status;
  return o;
}

type Write = { manager: string; time: string; apiVersion?: string; subresource?: string; statusReset?: boolean };

/** Runs one write and returns the written object carrying its new managedFields. */
function write(live: JsonObject | null, updated: JsonObject, w: Write, schema = saSchema): JsonObject {
  const managedFields = recordUpdate({
    live,
    updated,
    manager: w.manager,
    apiVersion: w.apiVersion ?? (schema === saSchema ? 'v1' : 'apps/v1'),
    time: w.time,
    schema,
    statusReset: w.statusReset ?? false,
    ...(w.subresource === undefined ? {} : { subresource: w.subresource }),
  });
  return { ...updated, metadata: { ...(updated['metadata'] as JsonObject), managedFields: managedFields as unknown as JsonObject[] } };
}

const mf = (o: JsonObject): ManagedFieldsEntry[] => ((o['metadata'] as JsonObject)['managedFields'] ?? []) as unknown as ManagedFieldsEntry[];
const owned = (e: ManagedFieldsEntry | undefined): string[] => pathsOf(fromFieldsV1(e?.fieldsV1 ?? {})).map(pathString);
const entry = (o: JsonObject, manager: string): ManagedFieldsEntry | undefined => mf(o).find((e) => e.manager === manager);

describe('managedFields on create', () => {
  it('records the §13.4 example: a ServiceAccount POSTed by curl with a label and one secret', () => {
    const created = sa({ secrets: [{ name: 's1' }] }, { creationTimestamp: t(0), labels: { app: 'web' } });
    expect(recordUpdate({ live: null, updated: created, manager: 'curl', apiVersion: 'v1', time: t(0), schema: saSchema, statusReset: false })).toEqual([
      {
        manager: 'curl',
        operation: 'Update',
        apiVersion: 'v1',
        time: t(0),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:secrets': { '.': {}, 'k:{"name":"s1"}': { '.': {}, 'f:name': {} } } },
      },
    ]);
    const entries = recordUpdate({ live: null, updated: created, manager: 'curl', apiVersion: 'v1', time: t(0), schema: saSchema, statusReset: false });
    expect(JSON.stringify(entries[0]!.fieldsV1)).toBe('{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:secrets":{".":{},"k:{\\"name\\":\\"s1\\"}":{".":{},"f:name":{}}}}');
    expect(Object.keys(entries[0]!)).toEqual(['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
  });

  it('owns nothing of a reset status and no struct nodes of its own', () => {
    const o = write(null, sts({ replicas: 2, template: { spec: { containers: [{ name: 'c', image: 'i' }] } } }, { replicas: 0 }), { manager: 'kubectl-create', time: t(0), statusReset: true }, stsSchema);
    expect(owned(entry(o, 'kubectl-create'))).toEqual([
      '.spec.replicas',
      '.spec.template.spec.containers',
      '.spec.template.spec.containers[name="c"]',
      '.spec.template.spec.containers[name="c"].image',
      '.spec.template.spec.containers[name="c"].name',
    ]);
  });

  it('records nothing for a create that sets no owned field, and names an empty manager "unknown"', () => {
    expect(recordUpdate({ live: null, updated: sa(), manager: 'x', apiVersion: 'v1', time: t(0), schema: saSchema, statusReset: false })).toEqual([]);
    const e = recordUpdate({ live: null, updated: sa({ automountServiceAccountToken: true }), manager: '', apiVersion: 'v1', time: t(0), schema: saSchema, statusReset: false });
    expect(e[0]!.manager).toBe('unknown');
  });
});

describe('managedFields on update', () => {
  const base = write(null, sa({ secrets: [{ name: 's1' }] }, { labels: { app: 'web', tier: 'fe' } }), { manager: 'creator', time: t(0) });

  it('moves changed fields to the writer and keeps the rest with their owner', () => {
    const next = write(base, sa({ secrets: [{ name: 's1' }] }, { labels: { app: 'api', tier: 'fe' }, managedFields: mf(base) as never }), { manager: 'editor', time: t(5) });
    expect(owned(entry(next, 'editor'))).toEqual(['.metadata.labels.app']);
    expect(entry(next, 'editor')!.time).toBe(t(5));
    expect(owned(entry(next, 'creator'))).toEqual(['.secrets', '.metadata.labels', '.metadata.labels.tier', '.secrets[name="s1"]', '.secrets[name="s1"].name']);
    expect(entry(next, 'creator')!.time).toBe(t(0));
  });

  it('keeps the stored list itself when a write changes only fields its writer owns, at the instant it last wrote', () => {
    const first = write(base, sa({ secrets: [{ name: 's1' }], automountServiceAccountToken: true }, base['metadata'] as JsonObject), { manager: 'editor', time: t(1) });
    const again = write(first, sa({ secrets: [{ name: 's1' }], automountServiceAccountToken: false }, first['metadata'] as JsonObject), { manager: 'editor', time: t(1) });
    // The same entries: the new version shares the list (stored versions never change).
    expect(mf(again)).toBe(mf(first));
    // At a later instant the writer's time moves: a new list, the other owners' tries shared.
    const later = write(again, sa({ secrets: [{ name: 's1' }], automountServiceAccountToken: true }, again['metadata'] as JsonObject), { manager: 'editor', time: t(2) });
    expect(mf(later)).not.toBe(mf(again));
    expect(entry(later, 'editor')!.time).toBe(t(2));
    expect(entry(later, 'editor')!.fieldsV1).toBe(entry(again, 'editor')!.fieldsV1);
    expect(entry(later, 'creator')!.fieldsV1).toBe(entry(again, 'creator')!.fieldsV1);
    expect(owned(entry(later, 'editor'))).toEqual(['.automountServiceAccountToken']);
  });

  it('gives the same list whether or not it recognises a stored list it kept before (property)', () => {
    // The kept-list shortcut (a writer rewriting its own fields at one instant) must say exactly
    // what the full bookkeeping says: each write is also run on a copy of its input, whose list
    // the shortcut has never seen. Writes come in runs by one writer at one instant.
    const edit = fc.oneof(
      fc.record({ label: fc.constantFrom('x', 'y'), value: fc.option(fc.constantFrom('1', '2'), { nil: undefined }) }),
      fc.record({ automount: fc.option(fc.boolean(), { nil: undefined }) }),
      fc.record({ secrets: fc.uniqueArray(fc.constantFrom('s1', 's2'), { maxLength: 2 }) }),
    );
    const run = fc.record({ manager: fc.constantFrom('a', 'b'), minute: fc.constantFrom(1, 2), subresource: fc.constantFrom('', '', 'status'), edits: fc.array(edit, { minLength: 1, maxLength: 5 }) });
    // Owners may share fields (appliers do, and a client may send such a list): `a` shares label y.
    // A client's list may also claim a field the object does not have: both claim automount.
    const sharedOwnership = [
      { manager: 'b', operation: 'Update', apiVersion: 'v1', time: t(0), fieldsType: 'FieldsV1', fieldsV1: { 'f:automountServiceAccountToken': {}, 'f:metadata': { 'f:labels': { 'f:y': {} } }, 'f:secrets': {} } },
      { manager: 'a', operation: 'Update', apiVersion: 'v1', time: t(1), fieldsType: 'FieldsV1', fieldsV1: { 'f:automountServiceAccountToken': {}, 'f:metadata': { 'f:labels': { 'f:x': {}, 'f:y': {} } } } },
    ];
    let shortcuts = 0;
    fc.assert(
      fc.property(fc.array(run, { minLength: 1, maxLength: 6 }), (runs) => {
        let live: JsonObject = sa({ secrets: [{ name: 's1' }] }, { labels: { x: '1', y: '1' }, managedFields: sharedOwnership as never });
        for (const r of runs) {
          for (const e of r.edits) {
            const meta = { ...(live['metadata'] as JsonObject) };
            const body: JsonObject = { ...live };
            if ('label' in e) {
              const labels = { ...((meta['labels'] ?? {}) as JsonObject) };
              if (e.value === undefined) delete labels[e.label];
              else labels[e.label] = e.value;
              meta['labels'] = labels;
            } else if ('automount' in e) {
              if (e.automount === undefined) delete body['automountServiceAccountToken'];
              else body['automountServiceAccountToken'] = e.automount;
            } else body['secrets'] = e.secrets.map((name) => ({ name }));
            const updated = { ...body, metadata: meta };
            const w: Write = { manager: r.manager, time: t(r.minute), ...(r.subresource === '' ? {} : { subresource: r.subresource }) };
            const copy = structuredClone({ live, updated });
            const next = write(live, updated, w);
            expect(mf(next)).toEqual(mf(write(copy.live, copy.updated, w)));
            if (mf(next) === mf(live)) shortcuts++;
            live = next;
          }
        }
      }),
      { numRuns: 300 },
    );
    expect(shortcuts).toBeGreaterThan(0);
  });

  it('gives objects made alike the same list for the same write, as the full bookkeeping does (property)', () => {
    // Two objects written the same way share their fieldsV1 objects, so the second one's write is
    // answered from the first's (sharedUpdates.ts); a structured clone shares nothing and is
    // worked out in full.
    const edit = fc.oneof(
      fc.record({ label: fc.constantFrom('x', 'y'), value: fc.option(fc.constantFrom('1', '2'), { nil: undefined }) }),
      fc.record({ automount: fc.option(fc.boolean(), { nil: undefined }) }),
    );
    const step = fc.record({ manager: fc.constantFrom('a', 'b'), minute: fc.constantFrom(1, 2, 3), edit });
    const apply = (live: JsonObject, st: { manager: string; minute: number; edit: { label: string; value: string | undefined } | { automount: boolean | undefined } }): JsonObject => {
      const meta = { ...(live['metadata'] as JsonObject) };
      const body: JsonObject = { ...live };
      const e = st.edit;
      if ('label' in e) {
        const labels = { ...((meta['labels'] ?? {}) as JsonObject) };
        if (e.value === undefined) delete labels[e.label];
        else labels[e.label] = e.value;
        meta['labels'] = labels;
      } else if (e.automount === undefined) delete body['automountServiceAccountToken'];
      else body['automountServiceAccountToken'] = e.automount;
      return write(live, { ...body, metadata: meta }, { manager: st.manager, time: t(st.minute) });
    };
    let shared = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 8 }), (steps) => {
        let a = write(null, sa({}, { labels: { x: '1' } }), { manager: 'a', time: t(0) });
        let b = write(null, sa({}, { labels: { x: '1' } }), { manager: 'a', time: t(0) });
        for (const st of steps) {
          const copy = structuredClone(b);
          a = apply(a, st);
          const before = mf(b);
          b = apply(b, st);
          expect(mf(b)).toEqual(mf(a));
          expect(mf(b)).toEqual(mf(apply(copy, st)));
          if (mf(b) === mf(a) && mf(b) !== before) shared++;
        }
      }),
      { numRuns: 300 },
    );
    expect(shared).toBeGreaterThan(0);
  });

  it('takes fields from Apply owners too', () => {
    const applied: JsonObject = sa({}, {
      labels: { a: '1' },
      managedFields: [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: t(0), fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:a': {} } } } }],
    });
    const next = write(applied, sa({}, { labels: { a: '2' } }), { manager: 'editor', time: t(1) });
    expect(mf(next).map((e) => e.manager)).toEqual(['editor']);
  });

  it('removes deleted fields from every owner and drops owners left empty', () => {
    const second = write(base, sa({ secrets: [{ name: 's1' }], automountServiceAccountToken: false }, base['metadata'] as JsonObject), { manager: 'other', time: t(1) });
    const next = write(second, sa({ automountServiceAccountToken: false }, { labels: { app: 'web', tier: 'fe' } }), { manager: 'editor', time: t(2) });
    expect(owned(entry(next, 'creator'))).toEqual(['.metadata.labels', '.metadata.labels.app', '.metadata.labels.tier']);
    expect(entry(next, 'editor')).toBeUndefined();
    const gone = write(next, sa({ automountServiceAccountToken: false }), { manager: 'editor', time: t(3) });
    expect(mf(gone).map((e) => e.manager)).toEqual(['other']);
  });

  it('keeps the previous entries and times when a write changes no owned field', () => {
    const same = write(base, sa({ secrets: [{ name: 's1' }] }, { labels: { app: 'web', tier: 'fe' }, resourceVersion: '9', generation: 4 }), { manager: 'noop', time: t(9) });
    expect(mf(same)).toEqual(mf(base));
  });

  it('merges a manager’s later writes into its entry with the latest time', () => {
    const one = write(base, sa({ secrets: [{ name: 's1' }] }, { labels: { app: 'web', tier: 'fe', a: '1' } }), { manager: 'ed', time: t(1) });
    const two = write(one, sa({ secrets: [{ name: 's1' }] }, { labels: { app: 'web', tier: 'fe', a: '1', b: '2' } }), { manager: 'ed', time: t(2) });
    expect(owned(entry(two, 'ed'))).toEqual(['.metadata.labels.a', '.metadata.labels.b']);
    expect(entry(two, 'ed')!.time).toBe(t(2));
    const three = write(two, sa({ secrets: [{ name: 's1' }] }, { labels: { app: 'web', tier: 'fe', a: '1', b: '2' } }), { manager: 'ed', time: t(3) });
    expect(entry(three, 'ed')!.time).toBe(t(2));
  });

  it('keeps one entry per manager, apiVersion and subresource', () => {
    const v1 = write(base, sa({ secrets: [{ name: 's1' }] }, { labels: { app: 'web', tier: 'fe', a: '1' } }), { manager: 'ed', time: t(1), apiVersion: 'v1' });
    const v2 = write(v1, sa({ secrets: [{ name: 's1' }] }, { labels: { app: 'web', tier: 'fe', a: '1', b: '1' } }), { manager: 'ed', time: t(1), apiVersion: 'v2' });
    expect(mf(v2).filter((e) => e.manager === 'ed').map((e) => [e.apiVersion, owned(e)])).toEqual([
      ['v1', ['.metadata.labels.a']],
      ['v2', ['.metadata.labels.b']],
    ]);
    const created = write(null, sts({ replicas: 1 }, null), { manager: 'kubectl', time: t(0), statusReset: true }, stsSchema);
    const status = write(created, sts({ replicas: 1 }, { replicas: 1, readyReplicas: 1 }, { managedFields: [{}] as never }), { manager: 'ctrl', time: t(1), subresource: 'status' }, stsSchema);
    expect(mf(status)).toEqual([
      { manager: 'kubectl', operation: 'Update', apiVersion: 'apps/v1', time: t(0), fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
      { manager: 'ctrl', operation: 'Update', apiVersion: 'apps/v1', time: t(1), fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:readyReplicas': {}, 'f:replicas': {} } }, subresource: 'status' },
    ]);
  });

  it('ignores status changes on the main resource when status is reset', () => {
    const created = write(null, sts({ replicas: 1 }, null), { manager: 'kubectl', time: t(0), statusReset: true }, stsSchema);
    const next = write(created, sts({ replicas: 1 }, { replicas: 3 }), { manager: 'sneaky', time: t(1), statusReset: true }, stsSchema);
    expect(mf(next).map((e) => e.manager)).toEqual(['kubectl']);
  });
});

describe('owner identifiers', () => {
  it('are upstream\'s entry JSON without time and fields, worked out once per owner, NUL in a field included', () => {
    expect(ownerId({ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', subresource: 'status' })).toBe('{"manager":"kubectl","operation":"Update","apiVersion":"v1","subresource":"status"}');
    expect(ownerId({ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', subresource: '' })).toBe('{"manager":"kubectl","operation":"Apply"}');
    // Joined with NUL these two would read the same; they are two owners.
    const a = ownerId({ manager: 'm', operation: 'Update', apiVersion: 'v1\u0000s', subresource: '' });
    const b = ownerId({ manager: 'm', operation: 'Update', apiVersion: 'v1', subresource: 's\u0000' });
    expect(a).toBe('{"manager":"m","operation":"Update","apiVersion":"v1\\u0000s"}');
    expect(b).toBe('{"manager":"m","operation":"Update","apiVersion":"v1","subresource":"s\\u0000"}');
  });
});

describe('sorting and capping', () => {
  const owner = (manager: string, operation: 'Apply' | 'Update', time: string | undefined, apiVersion = 'v1', subresource = ''): Owner => ({
    manager,
    operation,
    apiVersion,
    subresource,
    ...(time === undefined ? {} : { time }),
    fields: fromFieldsV1({ [`f:${manager}${apiVersion}${subresource}`]: {} }),
  });

  it('sorts Apply before Update, then by time, manager, apiVersion and subresource', () => {
    const sorted = encodeManagedFields([
      owner('b', 'Update', t(1)),
      owner('a', 'Update', t(2)),
      owner('z', 'Apply', t(3)),
      owner('a', 'Update', t(1), 'v2'),
      owner('a', 'Update', t(1), 'v1', 'status'),
      owner('a', 'Update', t(1)),
      owner('y', 'Apply', t(0)),
      owner('n', 'Update', undefined),
    ]);
    expect(sorted.map((e) => [e.operation, e.manager, e.apiVersion, e.subresource ?? ''])).toEqual([
      ['Apply', 'y', 'v1', ''],
      ['Apply', 'z', 'v1', ''],
      ['Update', 'n', 'v1', ''],
      ['Update', 'a', 'v1', ''],
      ['Update', 'a', 'v1', 'status'],
      ['Update', 'a', 'v2', ''],
      ['Update', 'b', 'v1', ''],
      ['Update', 'a', 'v1', ''],
    ]);
    expect(sorted[2]).not.toHaveProperty('time');
  });

  it('folds the oldest Update owners into ancient-changes beyond 10', () => {
    const owners = new Map<string, Owner>();
    for (let i = 0; i < 11; i++) {
      const o = owner(`m${String(i).padStart(2, '0')}`, 'Update', t(i));
      owners.set(ownerId(o), o);
    }
    const applier = owner('kubectl', 'Apply', t(0));
    owners.set(ownerId(applier), applier);
    const capped = encodeManagedFields(capUpdateOwners(owners).values());
    expect(capped.filter((e) => e.operation === 'Update')).toHaveLength(10);
    const ancient = capped.find((e) => e.manager === 'ancient-changes')!;
    expect(ancient).toMatchObject({ operation: 'Update', apiVersion: 'v1', time: t(1) });
    expect(owned(ancient)).toEqual(['.m00v1', '.m01v1']);
    expect(capped.map((e) => e.manager)).toEqual(['kubectl', 'ancient-changes', 'm02', 'm03', 'm04', 'm05', 'm06', 'm07', 'm08', 'm09', 'm10']);
  });

  it('folds into an existing bucket and never folds the bucket into itself', () => {
    const owners = new Map<string, Owner>();
    const add = (o: Owner): void => void owners.set(ownerId(o), o);
    add(owner('m00', 'Update', t(0)));
    add({ ...owner('ancient-changes', 'Update', t(1)), fields: fromFieldsV1({ 'f:old': {} }) });
    for (let i = 2; i < 11; i++) add(owner(`m${String(i).padStart(2, '0')}`, 'Update', t(i)));
    const capped = encodeManagedFields(capUpdateOwners(owners).values());
    expect(capped).toHaveLength(10);
    expect(capped.map((e) => e.manager)).toEqual(['m00', 'ancient-changes', 'm03', 'm04', 'm05', 'm06', 'm07', 'm08', 'm09', 'm10']);
    expect(owned(capped[1])).toEqual(['.m02v1', '.old']);
    expect(capped[1]!.time).toBe(t(2));
  });

  it('folds per apiVersion, so distinct versions are not folded (as upstream)', () => {
    const owners = new Map<string, Owner>();
    for (let i = 0; i < 11; i++) {
      const o = owner(`m${i}`, 'Update', t(i), `v${i}`);
      owners.set(ownerId(o), o);
    }
    expect(capUpdateOwners(owners).size).toBe(11);
  });

  it('caps on a write: the 11th Update manager folds the two oldest', () => {
    let obj = write(null, sa({}, { labels: { l0: 'x' } }), { manager: 'w0', time: t(0) });
    for (let i = 1; i <= 10; i++) {
      const labels = { ...((obj['metadata'] as JsonObject)['labels'] as JsonObject), [`l${i}`]: 'x' };
      obj = write(obj, sa({}, { labels }), { manager: `w${i}`, time: t(i) });
    }
    expect(mf(obj)).toHaveLength(10);
    expect(mf(obj)[0]).toMatchObject({ manager: 'ancient-changes', time: t(1) });
    expect(owned(mf(obj)[0])).toEqual(['.metadata.labels', '.metadata.labels.l0', '.metadata.labels.l1']);
  });
});

describe('managedFields sent with a write', () => {
  const live = write(null, sa({ secrets: [{ name: 's1' }] }, { labels: { app: 'web' } }), { manager: 'creator', time: t(0) });

  it('clears everything with [] or [{}] and then tracks only this write', () => {
    expect(isResetRequest([])).toBe(true);
    expect(isResetRequest([{}])).toBe(true);
    expect(isResetRequest([{ manager: '' }])).toBe(true);
    expect(isResetRequest([{ manager: 'x' }])).toBe(false);
    expect(isResetRequest(undefined)).toBe(false);
    const cleared = write(live, sa({ secrets: [{ name: 's1' }] }, { labels: { app: 'web' }, managedFields: [{}] as never }), { manager: 'ed', time: t(1) });
    expect(mf(cleared)).toEqual([]);
    const clearedAndChanged = write(live, sa({ secrets: [{ name: 's1' }] }, { labels: { app: 'api' }, managedFields: [] as never }), { manager: 'ed', time: t(1) });
    expect(mf(clearedAndChanged).map((e) => [e.manager, owned(e)])).toEqual([['ed', ['.metadata.labels.app']]]);
  });

  it('uses a valid list from the request instead of the stored one', () => {
    const edited: ManagedFieldsEntry[] = [{ manager: 'someone', operation: 'Update', apiVersion: 'v1', time: t(0), fieldsType: 'FieldsV1', fieldsV1: { 'f:secrets': {} } }];
    const next = write(live, sa({ secrets: [{ name: 's1' }] }, { labels: { app: 'web' }, managedFields: edited as never }), { manager: 'ed', time: t(1) });
    expect(mf(next)).toEqual(edited);
  });

  it('ignores an invalid list and keeps the stored one', () => {
    for (const bad of [[{ manager: 'x' }], [{ manager: 'x', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV2', fieldsV1: {} }], [{ manager: 'x', operation: 'Apply', apiVersion: '', fieldsType: 'FieldsV1' }], 'nope', [{ operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'k:{': {} } }]]) {
      const next = write(live, sa({ secrets: [{ name: 's1' }] }, { labels: { app: 'web' }, managedFields: bad as never }), { manager: 'ed', time: t(1) });
      expect(mf(next)).toEqual(mf(live));
    }
  });

  it('ignores the request list on a subresource', () => {
    const owners = requestedManagedFields(sa({}, { managedFields: [] as never }), live, 'status');
    expect([...owners.values()].map((o) => o.manager)).toEqual(['creator']);
  });

  it('decodes what it encodes', () => {
    const decoded = decodeManagedFields(mf(live) as never);
    expect(decoded.ok).toBe(true);
    if (decoded.ok) expect(encodeManagedFields(decoded.owners.values())).toEqual(mf(live));
    expect(decodeManagedFields([{ manager: 'x', operation: 'Patch', apiVersion: 'v1', fieldsType: 'FieldsV1' }])).toEqual({ ok: false, error: 'operation must be `Apply` or `Update`' });
    expect(decodeManagedFields([{ manager: 'x', operation: 'Update', apiVersion: 'v1' }])).toEqual({ ok: false, error: 'missing fieldsType in managed fields entry 0' });
  });

  it('builds manager identifiers as upstream (apiVersion only for Update)', () => {
    expect(ownerId({ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', subresource: '' })).toBe('{"manager":"kubectl","operation":"Apply"}');
    expect(ownerId({ manager: 'k', operation: 'Update', apiVersion: 'apps/v1', subresource: 'status' })).toBe('{"manager":"k","operation":"Update","apiVersion":"apps/v1","subresource":"status"}');
  });
});

describe('compareObjects', () => {
  const p = (s: ReturnType<typeof compareObjects>['added']): string[] => pathsOf(s).map(pathString);

  it('records lists, maps and elements as nodes, but not named structs', () => {
    const c = compareObjects({}, { spec: { template: { metadata: { labels: { a: 'b' } } } }, metadata: { finalizers: ['x'] } }, stsSchema);
    expect(p(c.added)).toEqual(['.metadata.finalizers', '.metadata.finalizers[="x"]', '.spec.template.metadata.labels', '.spec.template.metadata.labels.a']);
  });

  it('separates added, modified and removed leaves; an empty container on both sides is a leaf', () => {
    const c = compareObjects(
      { spec: { replicas: 1, serviceName: 's', selector: { matchLabels: { a: 'b' } } } },
      { spec: { replicas: 2, selector: { matchLabels: { a: 'c' } }, template: { spec: { containers: [{ name: 'c', resources: {} }] } } } },
      stsSchema,
    );
    expect(p(c.modified)).toEqual(['.spec.replicas', '.spec.selector']);
    expect(p(c.removed)).toEqual(['.spec.serviceName']);
    expect(p(c.added)).toEqual([
      '.spec.template.spec.containers',
      '.spec.template.spec.containers[name="c"]',
      '.spec.template.spec.containers[name="c"].name',
      '.spec.template.spec.containers[name="c"].resources',
    ]);
  });
  it('leaves out exactly what withoutUnowned takes out of the full comparison (property)', () => {
    const meta = fc.record(
      {
        name: fc.constantFrom('web', 'api'),
        uid: fc.constantFrom('u1', 'u2'),
        resourceVersion: fc.constantFrom('1', '2'),
        generation: fc.constantFrom(1, 2),
        creationTimestamp: fc.constantFrom(t(0), t(1)),
        labels: fc.dictionary(fc.constantFrom('a', 'b'), fc.constantFrom('1', '2')),
        finalizers: fc.uniqueArray(fc.constantFrom('x', 'y'), { maxLength: 2 }),
      },
      { requiredKeys: [] },
    );
    const object = fc.record(
      {
        apiVersion: fc.constantFrom('apps/v1', 'v1'),
        kind: fc.constantFrom('StatefulSet', 'Other'),
        metadata: meta,
        spec: fc.record({ replicas: fc.constantFrom(1, 2), serviceName: fc.constantFrom('s', 't') }, { requiredKeys: [] }),
        status: fc.record({ replicas: fc.constantFrom(1, 2), readyReplicas: fc.constantFrom(0, 1) }, { requiredKeys: [] }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.option(object, { nil: undefined }), object, fc.constantFrom([], ['status'], ['spec', 'status']), (before, after, reset) => {
        const full = compareObjects(before, after, stsSchema);
        const owned = compareOwned(before, after, stsSchema, reset);
        expect(owned).toEqual({ added: withoutUnowned(full.added, reset), modified: withoutUnowned(full.modified, reset), removed: withoutUnowned(full.removed, reset) });
      }),
      { numRuns: 300 },
    );
  });
});
