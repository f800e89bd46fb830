/**
 * Field sets: what an object sets (by list and map types), the fieldsV1 trie in its exact JSON
 * form (both ways), the conflict rendering of paths, and the set algebra.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { difference, emptyFieldSet, hasPath, intersection, isEmptySet, pathsOf, recursiveDifference, union, type FieldSet } from '../../../src/store/apply/fieldSet.ts';
import { fieldSetFromPaths } from '../../../src/store/apply/fieldSetBuilder.ts';
import { fieldSetOf, isUnownedPath, rawFieldSetOf, unownedFields } from '../../../src/store/apply/fieldSetOf.ts';
import { fromFieldsV1, parseFieldsV1, toFieldsV1 } from '../../../src/store/apply/fieldsV1.ts';
import { pe, type Path } from '../../../src/store/apply/pathElement.ts';
import { pathString, serializePathElement } from '../../../src/store/apply/pathString.ts';
import { withNamedFieldsAsMembers } from '../../../src/store/apply/pruneUnapplied.ts';
import { saSchema, stsSchema } from './schemas.ts';

const f = pe.field;
const paths = (s: FieldSet): string[] => pathsOf(s).map(pathString);

describe('fieldSetOf', () => {
  it('owns the leaves of an apply configuration, list elements and map entries, not structs', () => {
    const sa = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'a', namespace: 'ns', labels: { app: 'web' } }, secrets: [{ name: 's1' }] };
    expect(toFieldsV1(fieldSetOf(sa, saSchema))).toEqual({
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:secrets': { 'k:{"name":"s1"}': { '.': {}, 'f:name': {} } },
    });
  });

  it('owns an atomic list as one field', () => {
    const s = fieldSetOf({ imagePullSecrets: [{ name: 'r1' }, { name: 'r2' }] }, saSchema);
    expect(toFieldsV1(s)).toEqual({ 'f:imagePullSecrets': {} });
    expect(paths(s)).toEqual(['.imagePullSecrets']);
  });

  it('owns set elements by value and list-map elements by their sorted keys', () => {
    const s = fieldSetOf({ metadata: { finalizers: ['b', 'a'] } }, saSchema);
    expect(toFieldsV1(s)).toEqual({ 'f:metadata': { 'f:finalizers': { 'v:"a"': {}, 'v:"b"': {} } } });
    expect(paths(s)).toEqual(['.metadata.finalizers[="a"]', '.metadata.finalizers[="b"]']);
    const sts = { spec: { template: { spec: { containers: [{ name: 'c', ports: [{ protocol: 'TCP', containerPort: 80 }] }] } } } };
    const v1 = toFieldsV1(fieldSetOf(sts, stsSchema));
    expect(JSON.stringify(v1)).toBe(
      '{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:name":{},"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:protocol":{}}}}}}}}}',
    );
    expect(paths(fieldSetOf(sts, stsSchema))).toContain('.spec.template.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"].protocol');
  });

  it('owns explicit nulls and empty objects, atomic structs and any values as fields', () => {
    const sts = { spec: { selector: { matchLabels: { a: 'b' } }, extra: { x: [1] }, updateStrategy: null, template: { spec: { containers: [{ name: 'c', resources: {} }] } } } };
    expect(paths(fieldSetOf(sts, stsSchema)).sort()).toEqual(
      ['.spec.extra', '.spec.selector', '.spec.updateStrategy', '.spec.template.spec.containers[name="c"]', '.spec.template.spec.containers[name="c"].name', '.spec.template.spec.containers[name="c"].resources'].sort(),
    );
  });

  it('owns nothing for an empty granular list', () => {
    expect(isEmptySet(fieldSetOf({ secrets: [] }, saSchema))).toBe(true);
  });

  it('never owns type meta and system metadata, and skips reset top-level fields', () => {
    const obj = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: {
        name: 'n', namespace: 'ns', uid: 'u', resourceVersion: '1', generation: 1, creationTimestamp: 't', selfLink: 'x',
        deletionTimestamp: 't', deletionGracePeriodSeconds: 0, managedFields: [], generateName: 'g',
      },
      spec: { replicas: 1 },
      status: { replicas: 1, conditions: [{ type: 'Ready', status: 'True' }] },
    };
    expect(paths(fieldSetOf(obj, stsSchema, ['status']))).toEqual(['.metadata.generateName', '.spec.replicas']);
    expect(paths(fieldSetOf(obj, stsSchema))).toContain('.status.conditions[type="Ready"].status');
    expect(paths(rawFieldSetOf(obj, stsSchema))).toContain('.metadata.name');
  });

  it('marks each owned duplicate list element as a whole', () => {
    const s = fieldSetOf({ secrets: [{ name: 'a', namespace: 'x' }, { name: 'a' }] }, saSchema);
    expect(paths(s)).toEqual(['.secrets[name="a"]']);
  });
});

describe('fieldsV1', () => {
  const example = { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:secrets': { '.': {}, 'k:{"name":"s1"}': { '.': {}, 'f:name': {} } } };

  it('reads and writes the §13.4 example exactly', () => {
    const s = fromFieldsV1(example);
    // Upstream iteration order: at each level the members first, then the children.
    expect(paths(s)).toEqual(['.secrets', '.metadata.labels', '.metadata.labels.app', '.secrets[name="s1"]', '.secrets[name="s1"].name']);
    expect(JSON.stringify(toFieldsV1(s))).toBe(JSON.stringify(example));
    expect(JSON.stringify(toFieldsV1(s))).toBe('{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:secrets":{".":{},"k:{\\"name\\":\\"s1\\"}":{".":{},"f:name":{}}}}');
  });

  it('orders fields before keys before values before indices, numbers before strings', () => {
    const s = fieldSetFromPaths([[pe.index(1)], [pe.value('a')], [pe.value(2)], [pe.key({ name: 'x' })], [f('z')], [f('a')], [pe.index(0)]]);
    expect(Object.keys(toFieldsV1(s))).toEqual(['f:a', 'f:z', 'k:{"name":"x"}', 'v:2', 'v:"a"', 'i:0', 'i:1']);
  });

  it('renders paths for conflicts', () => {
    const p: Path = [f('spec'), f('template'), f('spec'), f('containers'), pe.key({ name: 'nginx' }), f('image')];
    expect(pathString(p)).toBe('.spec.template.spec.containers[name="nginx"].image');
    expect(pathString([f('metadata'), f('finalizers'), pe.value('x')])).toBe('.metadata.finalizers[="x"]');
    expect(pathString([f('args'), pe.index(0)])).toBe('.args[0]');
    expect(pathString([f('ports'), pe.key({ protocol: 'TCP', containerPort: 80 })])).toBe('.ports[containerPort=80,protocol="TCP"]');
    expect(pathString([f('l'), pe.key({ name: 'a"b' })])).toBe('.l[name="a\\"b"]');
  });

  it('writes key values the way Go encodes JSON', () => {
    expect(serializePathElement(pe.key({ name: '<a&b>' }))).toBe('k:{"name":"\\u003ca\\u0026b\\u003e"}');
    expect(serializePathElement(pe.value(true))).toBe('v:true');
    expect(serializePathElement(pe.index(3))).toBe('i:3');
  });

  it('parses index and value elements and skips unknown element types', () => {
    const s = fromFieldsV1({ 'f:args': { 'i:0': {}, 'x:future': {} }, 'f:fin': { 'v:"a"': {} }, 'y:other': { 'f:q': {} } });
    expect(paths(s)).toEqual(['.args[0]', '.fin[="a"]']);
  });

  it('treats a node without children as owned and `.` as owning a node with children', () => {
    expect(paths(fromFieldsV1({ 'f:a': { 'f:b': {} } }))).toEqual(['.a.b']);
    expect(paths(fromFieldsV1({ 'f:a': { '.': {}, 'f:b': {} } }))).toEqual(['.a', '.a.b']);
    expect(paths(fromFieldsV1({ 'f:a': { '.': {} } }))).toEqual(['.a']);
  });

  it('reports malformed tries when read strictly, and reads them as empty leniently', () => {
    expect(parseFieldsV1({ 'k:{notjson': {} })).toMatchObject({ ok: false });
    expect(parseFieldsV1({ 'k:[1]': {} })).toMatchObject({ ok: false });
    expect(parseFieldsV1({ 'i:x': {} })).toMatchObject({ ok: false });
    expect(parseFieldsV1({ f: {} })).toMatchObject({ ok: false, error: 'key must be 2 characters long:' });
    expect(parseFieldsV1({ 'fx': {} })).toMatchObject({ ok: false, error: 'missing colon: fx' });
    expect(parseFieldsV1({ 'f:a': 1 })).toMatchObject({ ok: false });
    expect(parseFieldsV1([])).toMatchObject({ ok: false });
    expect(fromFieldsV1({ 'f:a': 1 })).toEqual(emptyFieldSet);
  });

  it('keeps `__proto__` as an ordinary field name', () => {
    const v1 = JSON.parse('{"f:metadata":{"f:labels":{"f:__proto__":{}}}}');
    const s = fromFieldsV1(v1);
    expect(paths(s)).toEqual(['.metadata.labels.__proto__']);
    const out = toFieldsV1(s);
    expect(JSON.stringify(out)).toBe('{"f:metadata":{"f:labels":{"f:__proto__":{}}}}');
    expect(({} as Record<string, unknown>)['f:__proto__']).toBeUndefined();
  });
});

describe('ordering', () => {
  it('orders field names by code point, as Go orders UTF-8 bytes', () => {
    const s = fieldSetFromPaths([[f('\uff5e')], [f('\u{1f600}')], [f('b')], [f('B')]]);
    expect(Object.keys(toFieldsV1(s))).toEqual(['f:B', 'f:b', 'f:\uff5e', 'f:\u{1f600}']);
  });

  it('orders key values numbers < strings < booleans', () => {
    const s = fieldSetFromPaths([[pe.key({ k: true })], [pe.key({ k: 'a' })], [pe.key({ k: 10 })], [pe.key({ k: 9 })]]);
    expect(pathsOf(s).map(pathString)).toEqual(['[k=9]', '[k=10]', '[k="a"]', '[k=true]']);
  });
});

describe('set algebra', () => {
  const a = fieldSetFromPaths([[f('spec'), f('replicas')], [f('spec'), f('template'), f('image')], [f('metadata'), f('labels'), f('x')]]);
  const b = fieldSetFromPaths([[f('spec'), f('replicas')], [f('spec')], [f('status'), f('ready')]]);

  it('computes union, intersection and difference per path', () => {
    expect(paths(union(a, b))).toEqual(['.spec', '.metadata.labels.x', '.spec.replicas', '.spec.template.image', '.status.ready']);
    expect(paths(intersection(a, b))).toEqual(['.spec.replicas']);
    expect(paths(difference(a, b))).toEqual(['.metadata.labels.x', '.spec.template.image']);
  });

  it('removes whole subtrees in a recursive difference', () => {
    expect(paths(recursiveDifference(a, fieldSetFromPaths([[f('spec')]])))).toEqual(['.metadata.labels.x']);
  });

  it('makes declared struct fields on the way to owned paths members', () => {
    const s = fieldSetFromPaths([[f('spec'), f('template'), f('spec'), f('containers'), pe.key({ name: 'c' }), f('image')], [f('metadata'), f('labels'), f('a')]]);
    expect(paths(withNamedFieldsAsMembers(s, stsSchema))).toEqual([
      '.metadata',
      '.spec',
      '.metadata.labels',
      '.metadata.labels.a',
      '.spec.template',
      '.spec.template.spec',
      '.spec.template.spec.containers',
      '.spec.template.spec.containers[name="c"].image',
    ]);
  });

  it('answers membership', () => {
    expect(hasPath(a, [f('spec'), f('replicas')])).toBe(true);
    expect(hasPath(a, [f('spec')])).toBe(false);
    expect(hasPath(a, [])).toBe(false);
  });
});

const element = fc.oneof(
  fc.constantFrom('a', 'b', 'spec', 'x.y', '__proto__', 'é').map((n) => pe.field(n)),
  fc.record({ name: fc.constantFrom('s1', 's2', '<&>') }).map((k) => pe.key(k)),
  fc.record({ port: fc.integer({ min: 0, max: 3 }), proto: fc.constantFrom('TCP', 'UDP') }).map((k) => pe.key(k)),
  fc.oneof(fc.constantFrom('v', 'w'), fc.integer({ min: -2, max: 2 }), fc.boolean()).map((v) => pe.value(v)),
  fc.nat({ max: 3 }).map((i) => pe.index(i)),
);
const pathArb = fc.array(element, { minLength: 1, maxLength: 4 });
const setArb = fc.array(pathArb, { maxLength: 12 }).map((ps) => fieldSetFromPaths(ps));

describe('field set properties', () => {
  it('round-trips through fieldsV1 and its JSON text', () => {
    fc.assert(
      fc.property(setArb, (s) => {
        expect(fromFieldsV1(toFieldsV1(s))).toEqual(s);
        expect(fromFieldsV1(JSON.parse(JSON.stringify(toFieldsV1(s))))).toEqual(s);
      }),
    );
  });

  it('contains exactly the paths it was built from', () => {
    fc.assert(
      fc.property(fc.array(pathArb, { maxLength: 12 }), (ps) => {
        const s = fieldSetFromPaths(ps);
        for (const p of ps) expect(hasPath(s, p)).toBe(true);
        const key = (p: Path): string => p.map(serializePathElement).join('/');
        expect(new Set(pathsOf(s).map(key))).toEqual(new Set(ps.map(key)));
      }),
    );
  });

  it('obeys the set laws', () => {
    fc.assert(
      fc.property(setArb, setArb, (x, y) => {
        expect(union(x, y)).toEqual(union(y, x));
        expect(intersection(x, y)).toEqual(intersection(y, x));
        expect(union(difference(x, y), intersection(x, y))).toEqual(x);
        expect(isEmptySet(intersection(difference(x, y), y))).toBe(true);
        expect(isEmptySet(difference(x, x))).toBe(true);
      }),
    );
  });
});

describe('isUnownedPath', () => {
  it('answers as a lookup in unownedFields does, for any path (property)', () => {
    const name = fc.constantFrom('apiVersion', 'kind', 'metadata', 'spec', 'name', 'namespace', 'uid', 'labels', 'managedFields', 'deletionTimestamp', 'clusterName', 'status');
    const element = fc.oneof(
      name.map((n) => pe.field(n)),
      name.map((n) => pe.value(n)),
      fc.nat({ max: 3 }).map((i) => pe.index(i)),
    );
    fc.assert(
      fc.property(fc.array(element, { maxLength: 4 }), (path) => {
        expect(isUnownedPath(path)).toBe(hasPath(unownedFields, path));
      }),
      { numRuns: 3000 },
    );
    expect(isUnownedPath([f('metadata'), f('uid')])).toBe(true);
    expect(isUnownedPath([f('metadata'), f('labels')])).toBe(false);
  });
});

