/**
 * In-process bodies sent as values (core/plainJson.ts): a copy is given only when it is exactly
 * what the JSON text would parse to — same keys in the same order, `__proto__` an own key — and
 * every other value is refused, so that the caller sends the text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainJsonCopy, plainJsonDepthMax } from '../../../src/core/plainJson.ts';
import { createSimulation } from '../../../src/index.ts';

/** Keys and values in order, to compare key order too (toEqual does not). */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return ['[', ...v.map(shape)];
  if (typeof v === 'object' && v !== null) return ['{', ...Object.keys(v).map((k) => [k, shape(Object.getOwnPropertyDescriptor(v, k)?.value)])];
  return Object.is(v, -0) ? '-0' : v;
}

const key = fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom('__proto__', 'toJSON', 'constructor', '1', '0'));
/** Values as callers build them, odd ones included. */
const anyValue = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.double(),
    fc.integer(),
    fc.constantFrom(undefined, Number.NaN, -0, Infinity, () => 1, new Date(0), new Map(), new Uint8Array(2), { toJSON: () => 'x' }),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.sparseArray(fc.integer(), { maxLength: 3 }),
    fc.dictionary(key, tie('v'), { maxKeys: 4 }),
    fc.dictionary(key, tie('v'), { maxKeys: 3 }).map((o) => Object.assign(Object.create(null) as object, o)),
  ),
})).v;

describe('plainJsonCopy', () => {
  it('gives exactly what the JSON text parses to, or refuses (property)', () => {
    fc.assert(
      fc.property(anyValue, (v) => {
        const copy = plainJsonCopy(v);
        if (copy === undefined) return;
        const text = JSON.stringify(v);
        expect(text).toBeDefined();
        expect(shape(copy)).toEqual(shape(JSON.parse(text)));
        expect(JSON.stringify(copy)).toBe(text);
      }),
      { numRuns: 3000 },
    );
  });

  it('copies plain data, shares nothing with it, and keeps `__proto__` an own key', () => {
    const body = JSON.parse('{"metadata":{"name":"a","labels":{"__proto__":"x","2":"y","b":"z"}},"list":[1,"two",null,{"k":false}]}') as { metadata: { labels: object } };
    const copy = plainJsonCopy(body) as typeof body;
    expect(shape(copy)).toEqual(shape(body));
    expect(copy.metadata).not.toBe(body.metadata);
    expect(Object.keys(copy.metadata.labels)).toEqual(['2', '__proto__', 'b']);
    expect(Object.getPrototypeOf(copy.metadata.labels)).toBe(Object.prototype);
  });

  it('refuses what JSON would change or cannot write', () => {
    for (const v of [undefined, Number.NaN, -0, Infinity, [1, undefined], { a: undefined }, { f: () => 1 }, new Date(0), { toJSON: () => 1 }, [, 1], 10n, Symbol('s')]) {
      expect(plainJsonCopy(v)).toBeUndefined();
    }
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(plainJsonCopy(cycle)).toBeUndefined();
    let deep: unknown = 1;
    for (let i = 0; i < plainJsonDepthMax; i++) deep = [deep];
    expect(plainJsonCopy(deep)).toBeDefined();
    expect(plainJsonCopy([deep])).toBeUndefined();
  });

  it('answers a value body as its text: the same objects, the same errors', async () => {
    const sim = await createSimulation({ seed: 1 });
    const path = '/api/v1/namespaces/default/serviceaccounts';
    const odd = { metadata: { name: 'odd', labels: { a: 'b' } }, automountServiceAccountToken: true, secrets: [{ name: 's' }] };
    const asValue = sim.requestSync({ method: 'POST', path, body: odd });
    const asText = sim.requestSync({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...odd, metadata: { ...odd.metadata, name: 'odd2' } }) });
    expect(asValue.status).toBe(201);
    expect({ ...asValue.body.metadata, name: '', uid: '', resourceVersion: '', creationTimestamp: '' }).toEqual({ ...asText.body.metadata, name: '', uid: '', resourceVersion: '', creationTimestamp: '' });
    // Refusals come out the same either way: a wrong kind, an unknown field (strict), a bad patch.
    for (const [method, p, body, headers] of [
      ['POST', path, { kind: 7 }, {}],
      ['POST', `${path}?fieldValidation=Strict`, { metadata: { name: 'x' }, bogus: 1 }, {}],
      ['PATCH', `${path}/odd`, [{ op: 'nope' }], { 'content-type': 'application/json-patch+json' }],
      ['PATCH', `${path}/odd`, { metadata: { name: 'other' } }, { 'content-type': 'application/merge-patch+json' }],
    ] as const) {
      const v = sim.requestSync({ method, path: p, headers, body });
      const t = sim.requestSync({ method, path: p, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      expect([v.status, v.body]).toEqual([t.status, t.body]);
    }
  });
});
