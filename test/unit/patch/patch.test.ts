/**
 * The three classic patch algorithms, with the reference's verified examples: strategic merge
 * ordering and directives, merge patch semantics, JSON patch operations and the v4 quirks,
 * prototype safety, and properties (inputs never mutated; empty patches change nothing).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyJsonPatch } from '../../../src/store/patch/jsonPatch.ts';
import { applyMergePatch } from '../../../src/store/patch/mergePatch.ts';
import { applyStrategicMergePatch } from '../../../src/store/patch/strategicMergePatch.ts';
import { s } from '../../../src/api/schema.ts';
import { objectMetaSchema } from '../../../src/api/meta.ts';
import { serviceAccountSchema } from '../../../src/registry/service-account/schema.ts';
import type { JsonObject, JsonValue } from '../../../src/core/json.ts';

const smp = (doc: JsonObject, patch: JsonObject, schema = serviceAccountSchema) => {
  const r = applyStrategicMergePatch(doc, patch, schema);
  if (!r.ok) throw new Error(r.error.status.message);
  return r.value as JsonObject;
};
const secrets = (...names: string[]) => names.map((name) => ({ name }));

describe('strategic merge patch', () => {
  it('merges keyed lists: patch elements first, then untouched ones', () => {
    expect(smp({ secrets: secrets('s1', 's2') }, { secrets: secrets('s3') }).secrets).toEqual(secrets('s3', 's1', 's2'));
    expect(smp({ secrets: [{ name: 's1' }, { name: 's2' }] }, { secrets: [{ name: 's1', namespace: 'other' }] }).secrets).toEqual([{ name: 's1', namespace: 'other' }, { name: 's2' }]);
  });

  it('replaces atomic lists and unions primitive merge lists', () => {
    expect(smp({ imagePullSecrets: secrets('a', 'b') }, { imagePullSecrets: secrets('c') }).imagePullSecrets).toEqual(secrets('c'));
    expect(smp({ metadata: { finalizers: ['a', 'b'] } }, { metadata: { finalizers: ['c', 'a'] } }).metadata).toEqual({ finalizers: ['c', 'a', 'b'] });
  });

  it('follows $patch, $setElementOrder, $deleteFromPrimitiveList and $retainKeys', () => {
    expect(smp({ secrets: secrets('s1', 's2') }, { secrets: [{ $patch: 'replace' }, { name: 's9' }] }).secrets).toEqual(secrets('s9'));
    expect(smp({ secrets: secrets('s1', 's2') }, { secrets: [{ name: 's1', $patch: 'delete' }] }).secrets).toEqual(secrets('s2'));
    expect(smp({ secrets: secrets('s1', 's2', 's3') }, { '$setElementOrder/secrets': secrets('s2', 's3', 's1') }).secrets).toEqual(secrets('s2', 's3', 's1'));
    expect(smp({ metadata: { finalizers: ['a', 'b'] } }, { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }).metadata).toEqual({ finalizers: ['b'] });
    const sts = s.struct('X', { metadata: objectMetaSchema, updateStrategy: s.struct('U', { type: s.string(), rollingUpdate: s.any() }, { retainKeys: true }) });
    expect(smp({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } }, { updateStrategy: { $retainKeys: ['type'], type: 'OnDelete' } }, sts)).toEqual({ updateStrategy: { type: 'OnDelete' } });
    expect(smp({ metadata: { labels: { a: '1' } } }, { metadata: { labels: { $patch: 'replace', b: '2' } } }).metadata).toEqual({ labels: { b: '2' } });
  });

  it('maps its errors to the real answers', () => {
    const r = applyStrategicMergePatch({ secrets: secrets('a') }, { secrets: [{ namespace: 'x' }] }, serviceAccountSchema);
    // A reasonless 500 in the real server; a client's mistake is a 400 here (docs/divergences.md).
    expect(!r.ok && r.error.status).toMatchObject({ code: 400, reason: 'BadRequest', message: 'map: map[namespace:x] does not contain declared merge key: name' });
    const bad = applyStrategicMergePatch({}, { metadata: { '$deleteFromPrimitiveList/finalizers': 'a' } }, serviceAccountSchema);
    expect(!bad.ok && bad.error.status).toMatchObject({ code: 400, message: 'invalid patch format of primitive list' });
  });

  it('never pollutes prototypes and changes nothing for an empty patch', () => {
    const r = smp({ a: 1 } as JsonObject, JSON.parse('{"__proto__":{"polluted":1}}'));
    expect(Object.keys(r)).toContain('__proto__');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (doc) => {
        expect(smp(doc as unknown as JsonObject, {})).toEqual(doc);
      }),
    );
  });
});

describe('merge patch', () => {
  it('deletes with null, replaces lists, prunes nulls in new subtrees', () => {
    expect(applyMergePatch({ secrets: secrets('s1', 's2'), a: 1 }, { secrets: secrets('s3'), a: null })).toEqual({ secrets: secrets('s3') });
    expect(applyMergePatch({}, { x: { y: null, z: 1 } })).toEqual({ x: { z: 1 } });
    expect(applyMergePatch({ a: 1 }, [1])).toEqual([1]);
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (d, p) => {
        const doc = d as JsonValue;
        const patch = p as JsonValue;
        const once = applyMergePatch(doc, patch);
        expect(applyMergePatch(once, patch)).toEqual(once);
      }),
    );
  });
});

describe('JSON patch', () => {
  it('applies every operation', () => {
    const r = applyJsonPatch({ a: [1, 2], b: { c: 1 } }, [
      { op: 'add', path: '/a/-', value: 3 },
      { op: 'add', path: '/a/0', value: 0 },
      { op: 'remove', path: '/b/c' },
      { op: 'replace', path: '/b/d', value: 'quirk' },
      { op: 'copy', from: '/a/1', path: '/e' },
      { op: 'move', from: '/e', path: '/f' },
      { op: 'test', path: '/f', value: 1 },
      { op: 'add', path: '/x~1y', value: true },
    ]);
    expect(r).toEqual({ ok: true, value: { a: [0, 1, 2, 3], b: { d: 'quirk' }, f: 1, 'x/y': true } });
  });

  it('fails whole with the generic 422, 400 for a non-array, 413 past 10,000 operations', () => {
    const failed = applyJsonPatch({ a: 1 }, [{ op: 'remove', path: '/missing' }]);
    expect(!failed.ok && failed.error.status).toMatchObject({ code: 422, message: 'the server rejected our request due to an error in our request' });
    expect(!failed.ok && applyJsonPatch({}, [{ op: 'add', path: '/a/b', value: 1 }]).ok).toBe(false);
    const notArray = applyJsonPatch({}, { op: 'add' });
    expect(!notArray.ok && notArray.error.status.message).toBe('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    const big = applyJsonPatch({}, Array.from({ length: 10_001 }, () => ({ op: 'test', path: '', value: {} })));
    expect(!big.ok && big.error.status).toMatchObject({ code: 413, message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001' });
  });

  it('never mutates its input', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue()), fc.string({ maxLength: 3 }), (doc, key) => {
        const copy = structuredClone(doc);
        applyJsonPatch(doc as unknown as JsonObject, [{ op: 'add', path: `/${key}`, value: 1 }, { op: 'remove', path: `/${key}` }]);
        expect(doc).toEqual(copy);
      }),
    );
  });
});

describe('strategic merge patch element order (normalizeElementOrder)', () => {
  const ports = s.struct('Spec', { ports: s.keyedList(s.struct('Port', { port: s.int32(), name: s.string() }), 'port'), finalizers: s.set(s.string()) });
  const smp = (doc: JsonObject, patch: JsonObject): JsonValue => {
    const r = applyStrategicMergePatch(doc, patch, ports);
    if (!r.ok) throw new Error(r.error.status.message);
    return r.value;
  };

  it('keeps the live order when patching an existing item', () => {
    expect(smp({ ports: [{ port: 80 }, { port: 443 }] }, { ports: [{ port: 443, name: 'https' }] })).toEqual({ ports: [{ port: 80 }, { port: 443, name: 'https' }] });
  });

  it('puts new items before the untouched ones, in patch order', () => {
    expect(smp({ ports: [{ port: 80 }, { port: 443 }] }, { ports: [{ port: 9090 }, { port: 8080 }] })).toEqual({ ports: [{ port: 9090 }, { port: 8080 }, { port: 80 }, { port: 443 }] });
  });

  it('orders primitive merge lists the same way', () => {
    expect(smp({ finalizers: ['a', 'b'] }, { finalizers: ['b'] })).toEqual({ finalizers: ['a', 'b'] });
    expect(smp({ finalizers: ['a', 'b'] }, { finalizers: ['c'] })).toEqual({ finalizers: ['c', 'a', 'b'] });
  });
});
