/**
 * ObjectMeta validation on create and update: each rule's exact rendering
 * (`<path>: <phrase>: <value>: <detail>`), and the deterministic order of several errors.
 */
import { describe, expect, it } from 'vitest';
import type { ObjectMeta, OwnerReference } from '../../../src/api/meta.ts';
import { fieldErrorString, type FieldError } from '../../../src/core/fieldErrors.ts';
import { validateObjectMetaCreate, validateObjectMetaUpdate, type ObjectMetaRules } from '../../../src/registry/validation/objectMeta.ts';

const SUBDOMAIN = String.raw`a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;
const LABEL = `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`;
const KEY_NAME = `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`;
const KEY_SLASHES = `a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`;
const VALUE = `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`;

const namespacedSubdomain: ObjectMetaRules = { namespaced: true, nameRule: 'subdomain' };
const render = (errs: readonly FieldError[]): string[] => errs.map(fieldErrorString);
const create = (meta: ObjectMeta, rules: ObjectMetaRules = namespacedSubdomain): string[] => render(validateObjectMetaCreate(meta, rules));
const ok: ObjectMeta = { name: 'a', namespace: 'default' };

describe('names on create', () => {
  it('accepts a plain object', () => {
    expect(create(ok)).toEqual([]);
  });

  it('requires a name or generateName', () => {
    expect(create({ namespace: 'default' })).toEqual(['metadata.name: Required value: name or generateName is required']);
    expect(create({ name: '', namespace: 'default' })).toEqual(['metadata.name: Required value: name or generateName is required']);
  });

  it('checks the name with the kind rule', () => {
    expect(create({ ...ok, name: 'Bad_Name' })).toEqual([`metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN}`]);
    const long = 'a'.repeat(254);
    expect(create({ ...ok, name: long })).toEqual([`metadata.name: Invalid value: "${long}": must be no more than 253 characters`]);
    expect(create({ ...ok, name: 'a.b' }, { namespaced: true, nameRule: 'label' })).toEqual(['metadata.name: Invalid value: "a.b": must not contain dots']);
    expect(create({ ...ok, name: 'Bad_Name' }, { namespaced: true, nameRule: 'path' })).toEqual([]);
    expect(create({ ...ok, name: 'a/b' }, { namespaced: true, nameRule: 'path' })).toEqual([`metadata.name: Invalid value: "a/b": may not contain '/'`]);
    expect(create({ ...ok, name: '..' }, { namespaced: true, nameRule: 'path' })).toEqual([`metadata.name: Invalid value: "..": may not be '..'`]);
  });

  it('validates generateName with the suffix in mind, and the generated name as a name', () => {
    expect(create({ ...ok, generateName: 'web-', name: 'web-x7k2p' })).toEqual([]);
    expect(create({ ...ok, generateName: 'Web-', name: 'Web-x7k2p' })).toEqual([
      `metadata.generateName: Invalid value: "Web-": ${SUBDOMAIN}`,
      `metadata.name: Invalid value: "Web-x7k2p": ${SUBDOMAIN}`,
    ]);
    expect(create({ ...ok, generateName: 'a/', name: 'a/bcdfg' }, { namespaced: true, nameRule: 'path' })).toEqual([
      `metadata.generateName: Invalid value: "a/": may not contain '/'`,
      `metadata.name: Invalid value: "a/bcdfg": may not contain '/'`,
    ]);
  });
});

describe('namespace and generation on create', () => {
  it('requires a namespace for namespaced kinds and checks it as a DNS label', () => {
    expect(create({ name: 'a' })).toEqual(['metadata.namespace: Required value']);
    expect(create({ name: 'a', namespace: 'Bad' })).toEqual([`metadata.namespace: Invalid value: "Bad": ${LABEL}`]);
    expect(create({ name: 'a', namespace: 'a.b' })).toEqual(['metadata.namespace: Invalid value: "a.b": must not contain dots']);
  });

  it('forbids a namespace on cluster-scoped kinds', () => {
    const cluster: ObjectMetaRules = { namespaced: false, nameRule: 'label' };
    expect(create({ name: 'a', namespace: 'default' }, cluster)).toEqual(['metadata.namespace: Forbidden: not allowed on this type']);
    expect(create({ name: 'a' }, cluster)).toEqual([]);
  });

  it('refuses a negative generation', () => {
    expect(create({ ...ok, generation: -1 })).toEqual(['metadata.generation: Invalid value: -1: must be greater than or equal to 0']);
  });
});

describe('labels', () => {
  it.each([
    ['Bad_Prefix/x', `prefix part ${SUBDOMAIN}`],
    ['/x', 'prefix part must be non-empty'],
    ['x'.repeat(64), 'name part must be no more than 63 bytes'],
    ['a/b/c', KEY_SLASHES],
    ['-x', KEY_NAME],
  ])('reports the key %j at metadata.labels', (key, msg) => {
    expect(create({ ...ok, labels: { [key]: 'v' } })).toEqual([`metadata.labels: Invalid value: ${JSON.stringify(key)}: ${msg}`]);
  });

  it('reports an empty name part twice, as Kubernetes does', () => {
    expect(create({ ...ok, labels: { 'example.com/': 'v' } })).toEqual([
      'metadata.labels: Invalid value: "example.com/": name part must be non-empty',
      `metadata.labels: Invalid value: "example.com/": ${KEY_NAME}`,
    ]);
  });

  it('reports bad values with the value', () => {
    expect(create({ ...ok, labels: { app: '-web' } })).toEqual([`metadata.labels: Invalid value: "-web": ${VALUE}`]);
    const long = 'v'.repeat(64);
    expect(create({ ...ok, labels: { app: long } })).toEqual([`metadata.labels: Invalid value: "${long}": must be no more than 63 bytes`]);
    expect(create({ ...ok, labels: { app: '' } })).toEqual([]);
  });

  it('walks keys in sorted order, key errors before value errors', () => {
    expect(create({ ...ok, labels: { 'z/-': '-', '-a': '-b' } })).toEqual([
      `metadata.labels: Invalid value: "-a": ${KEY_NAME}`,
      `metadata.labels: Invalid value: "-b": ${VALUE}`,
      `metadata.labels: Invalid value: "z/-": ${KEY_NAME}`,
      `metadata.labels: Invalid value: "-": ${VALUE}`,
    ]);
  });
});

describe('annotations', () => {
  it('checks keys lower-cased and accepts any value', () => {
    expect(create({ ...ok, annotations: { 'Example.COM/Key': 'any value, even spaces & symbols' } })).toEqual([]);
    expect(create({ ...ok, annotations: { 'a b': 'x' } })).toEqual([`metadata.annotations: Invalid value: "a b": ${KEY_NAME}`]);
    expect(create({ ...ok, annotations: { 'Upper.Prefix/X': 'x' } })).toEqual([]);
    // The bad value is the key as given, not lower-cased.
    expect(create({ ...ok, annotations: { 'Bad_Prefix/x': 'x' } })).toEqual([`metadata.annotations: Invalid value: "Bad_Prefix/x": prefix part ${SUBDOMAIN}`]);
    expect(create({ ...ok, labels: { 'Upper.Prefix/X': 'x' } })).toEqual([`metadata.labels: Invalid value: "Upper.Prefix/X": prefix part ${SUBDOMAIN}`]);
  });

  it('limits keys plus values to 262144 bytes in total', () => {
    expect(create({ ...ok, annotations: { k: 'v'.repeat(262_143) } })).toEqual([]);
    expect(create({ ...ok, annotations: { k: 'v'.repeat(262_144) } })).toEqual(['metadata.annotations: Too long: may not be more than 262144 bytes']);
    expect(create({ ...ok, annotations: { a: 'v'.repeat(131_072), b: 'v'.repeat(131_071) } })).toEqual(['metadata.annotations: Too long: may not be more than 262144 bytes']);
    // Multi-byte characters count by their UTF-8 size.
    expect(create({ ...ok, annotations: { k: 'é'.repeat(131_072) } })).toEqual(['metadata.annotations: Too long: may not be more than 262144 bytes']);
  });
});

describe('ownerReferences', () => {
  const ref = (name: string, extra: Partial<OwnerReference> = {}): OwnerReference => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid: `uid-${name}`, ...extra });

  it('accepts complete references', () => {
    expect(create({ ...ok, ownerReferences: [ref('a', { controller: true }), ref('b', { controller: false })] })).toEqual([]);
  });

  it('requires uid, and apiVersion, kind and name, in that order', () => {
    expect(create({ ...ok, ownerReferences: [ref('a', { uid: '' })] })).toEqual(['metadata.ownerReferences[0].uid: Invalid value: "": must not be empty']);
    expect(create({ ...ok, ownerReferences: [{} as OwnerReference] })).toEqual([
      'metadata.ownerReferences[0].apiVersion: Required value: must not be empty',
      'metadata.ownerReferences[0].kind: Invalid value: "": must not be empty',
      'metadata.ownerReferences[0].name: Invalid value: "": must not be empty',
      'metadata.ownerReferences[0].uid: Invalid value: "": must not be empty',
    ]);
  });

  it('checks the apiVersion form', () => {
    for (const apiVersion of ['a/b/c', 'apps/', '/']) {
      expect(create({ ...ok, ownerReferences: [ref('a', { apiVersion })] })).toEqual([
        `metadata.ownerReferences[0].apiVersion: Invalid value: ${JSON.stringify(apiVersion)}: must be <group>/<version> or <version>`,
      ]);
    }
    expect(create({ ...ok, ownerReferences: [ref('a', { apiVersion: 'v1' })] })).toEqual([]);
  });

  it('allows one controller only', () => {
    const refs = [ref('a', { controller: true }), ref('b', { controller: true, blockOwnerDeletion: true })];
    const shown = '[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"a","uid":"uid-a","controller":true},{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"b","uid":"uid-b","controller":true,"blockOwnerDeletion":true}]';
    expect(create({ ...ok, ownerReferences: refs })).toEqual([
      `metadata.ownerReferences: Invalid value: ${shown}: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b`,
    ]);
  });

  it('compares every further controller with the first', () => {
    const refs = [ref('a', { controller: true }), ref('b', { controller: true }), ref('c', { controller: true })];
    const details = validateObjectMetaCreate({ ...ok, ownerReferences: refs }, namespacedSubdomain).map((e) => e.detail);
    expect(details).toEqual([
      'Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b',
      'Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/c',
    ]);
  });

  it('refuses a core v1 Event as owner, but not events.k8s.io', () => {
    expect(create({ ...ok, ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }] })).toEqual([
      'metadata.ownerReferences[0]: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}: /v1, Kind=Event is disallowed from being an owner',
    ]);
    expect(create({ ...ok, ownerReferences: [{ apiVersion: 'events.k8s.io/v1', kind: 'Event', name: 'e', uid: 'u' }] })).toEqual([]);
  });

  it('orders indices numerically', () => {
    const refs = Array.from({ length: 11 }, (_, i) => ref(`r${i}`, i === 2 || i === 10 ? { uid: '' } : {}));
    expect(create({ ...ok, ownerReferences: refs })).toEqual([
      'metadata.ownerReferences[2].uid: Invalid value: "": must not be empty',
      'metadata.ownerReferences[10].uid: Invalid value: "": must not be empty',
    ]);
  });
});

describe('finalizers on create', () => {
  it('accepts qualified names, prefixed or not', () => {
    expect(create({ ...ok, finalizers: ['kubernetes', 'example.com/hold', 'orphan'] })).toEqual([]);
  });

  it('refuses names that are not qualified names', () => {
    expect(create({ ...ok, finalizers: ['example.com/a/b'] })).toEqual([`metadata.finalizers: Invalid value: "example.com/a/b": ${KEY_SLASHES}`]);
    expect(create({ ...ok, finalizers: ['-x'] })).toEqual([`metadata.finalizers: Invalid value: "-x": ${KEY_NAME}`]);
  });

  it('refuses orphan together with foregroundDeletion', () => {
    expect(create({ ...ok, finalizers: ['orphan', 'foregroundDeletion'] })).toEqual([
      'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
    ]);
  });
});

describe('order of several errors', () => {
  it("keeps Kubernetes' check order (ValidateObjectMetaAccessor), never sorted by path", () => {
    expect(create({ name: 'Bad', labels: { '-k': 'v' }, finalizers: ['orphan', 'foregroundDeletion', '-f'], generation: -1 })).toEqual([
      `metadata.name: Invalid value: "Bad": ${SUBDOMAIN}`,
      'metadata.namespace: Required value',
      'metadata.generation: Invalid value: -1: must be greater than or equal to 0',
      `metadata.labels: Invalid value: "-k": ${KEY_NAME}`,
      `metadata.finalizers: Invalid value: "-f": ${KEY_NAME}`,
      'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion","-f"]: finalizer orphan and foregroundDeletion cannot be both set',
    ]);
  });

  it('a missing name comes before label, annotation and owner reference errors', () => {
    expect(create({ name: '', namespace: 'default', labels: { b: '-', a: '-' }, annotations: { '-x': '' }, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: '' }] })).toEqual([
      'metadata.name: Required value: name or generateName is required',
      `metadata.labels: Invalid value: "-": ${VALUE}`,
      `metadata.labels: Invalid value: "-": ${VALUE}`,
      `metadata.annotations: Invalid value: "-x": ${KEY_NAME}`,
      'metadata.ownerReferences[0].uid: Invalid value: "": must not be empty',
    ]);
  });
});

describe('update', () => {
  const old: ObjectMeta = {
    name: 'a',
    namespace: 'default',
    uid: 'u1',
    resourceVersion: '5',
    generation: 2,
    creationTimestamp: '2024-01-01T00:00:00Z',
    finalizers: ['example.com/hold'],
  };
  const update = (changes: Partial<ObjectMeta>, from: ObjectMeta = old): string[] => render(validateObjectMetaUpdate({ ...from, ...changes }, from, namespacedSubdomain));

  it('accepts an unchanged object, and leaves an empty resourceVersion to the store', () => {
    expect(update({})).toEqual([]);
    expect(update({ resourceVersion: '' })).toEqual([]);
    expect(update({ labels: { a: 'b' }, generation: 3 })).toEqual([]);
  });

  it('keeps name, namespace, uid and creationTimestamp immutable', () => {
    expect(update({ name: 'b' })).toEqual(['metadata.name: Invalid value: "b": field is immutable']);
    expect(update({ namespace: 'other' })).toEqual(['metadata.namespace: Invalid value: "other": field is immutable']);
    expect(update({ uid: 'u2' })).toEqual(['metadata.uid: Invalid value: "u2": field is immutable']);
    expect(update({ creationTimestamp: '2025-01-01T00:00:00Z' })).toEqual(['metadata.creationTimestamp: Invalid value: "2025-01-01T00:00:00Z": field is immutable']);
  });

  it('renders a removed timestamp or pointer as null, as Go marshals it', () => {
    const { creationTimestamp: _c, ...withoutTime } = old;
    expect(render(validateObjectMetaUpdate(withoutTime, old, namespacedSubdomain))).toEqual(['metadata.creationTimestamp: Invalid value: null: field is immutable']);
    const deleting: ObjectMeta = { ...old, deletionTimestamp: '2024-02-01T00:00:00Z', deletionGracePeriodSeconds: 0 };
    const { deletionTimestamp: _d, deletionGracePeriodSeconds: _g, ...undeleted } = deleting;
    expect(render(validateObjectMetaUpdate(undeleted, deleting, namespacedSubdomain))).toEqual([
      'metadata.deletionTimestamp: Invalid value: null: field is immutable',
      'metadata.deletionGracePeriodSeconds: Invalid value: null: field is immutable',
    ]);
    expect(update({ deletionGracePeriodSeconds: 30 }, deleting)).toEqual(['metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable']);
  });

  it('refuses a decremented generation', () => {
    expect(update({ generation: 1 })).toEqual(['metadata.generation: Invalid value: 1: must not be decremented']);
    expect(update({ generation: -1 })).toEqual([
      'metadata.generation: Invalid value: -1: must be greater than or equal to 0',
      'metadata.generation: Invalid value: -1: must not be decremented',
    ]);
  });

  it('refuses new finalizers once the object is being deleted', () => {
    const deleting: ObjectMeta = { ...old, deletionTimestamp: '2024-02-01T00:00:00Z' };
    expect(update({ finalizers: ['example.com/hold', 'x.example.com/y'] }, deleting)).toEqual([
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"x.example.com/y"}',
    ]);
    expect(update({ finalizers: ['b.example.com/y', 'a.example.com/x'] }, deleting)).toEqual([
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a.example.com/x", "b.example.com/y"}',
    ]);
    expect(update({ finalizers: [] }, deleting)).toEqual([]);
    expect(update({ finalizers: ['example.com/hold', 'x.example.com/y'] })).toEqual([]);
  });

  it('still checks the new metadata, reporting each problem once', () => {
    expect(update({ labels: { '-k': 'v' } })).toEqual([`metadata.labels: Invalid value: "-k": ${KEY_NAME}`]);
    expect(update({ finalizers: ['orphan', 'foregroundDeletion'] })).toEqual([
      'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
    ]);
    expect(update({ generateName: 'Bad-' })).toEqual([`metadata.generateName: Invalid value: "Bad-": ${SUBDOMAIN}`]);
  });

  it('lists finalizer name errors before the deletion rule within the path', () => {
    const deleting: ObjectMeta = { ...old, deletionTimestamp: '2024-02-01T00:00:00Z' };
    expect(update({ finalizers: ['example.com/hold', '-x'] }, deleting)).toEqual([
      `metadata.finalizers: Invalid value: "-x": ${KEY_NAME}`,
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"-x"}',
    ]);
  });
});
