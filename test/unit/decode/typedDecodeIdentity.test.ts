/**
 * Typed decoding keeps what it does not change: parts that decode to themselves come back as the
 * same objects, and with the stored object beside a patched one, the stored parts are not walked
 * again — while unknown fields, nulls and type errors are handled exactly as before.
 */
import { describe, expect, it } from 'vitest';
import { decodeTyped } from '../../../src/store/decode/typedDecode.ts';
import { serviceAccountSchema } from '../../../src/registry/service-account/schema.ts';
import type { JsonObject } from '../../../src/core/json.ts';

const ctx = { kind: 'ServiceAccount', version: 'v1' };

describe('decodeTyped identity', () => {
  it('returns a value that decodes to itself as it is, and copies only around what changes', () => {
    const sa: JsonObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'a', labels: { x: 'y' } }, secrets: [{ name: 's' }] };
    const same = decodeTyped(sa, serviceAccountSchema, ctx);
    expect(same.ok && same.value).toBe(sa);
    const withUnknown: JsonObject = { ...sa, bogus: 1, metadata: { ...(sa['metadata'] as JsonObject), annotations: null } };
    const r = decodeTyped(withUnknown, serviceAccountSchema, ctx);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.unknownFields).toEqual(['bogus']);
    expect(r.value).toEqual({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'a', labels: { x: 'y' } }, secrets: [{ name: 's' }] });
    expect((r.value as JsonObject)['secrets']).toBe(sa['secrets']);
    expect(Object.keys(r.value as JsonObject)).toEqual(['apiVersion', 'kind', 'metadata', 'secrets']);
  });

  it('trusts the stored parts of a patched object, and still checks the patched ones', () => {
    const stored: JsonObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'a' }, secrets: [{ name: 's' }] };
    const patched: JsonObject = { ...stored, automountServiceAccountToken: true };
    const ok = decodeTyped(patched, serviceAccountSchema, ctx, stored);
    expect(ok.ok && ok.value).toBe(patched);
    const bad = decodeTyped({ ...stored, automountServiceAccountToken: 'yes' }, serviceAccountSchema, ctx, stored);
    expect(bad).toEqual({ ok: false, message: 'json: cannot unmarshal string into Go struct field ServiceAccount.automountServiceAccountToken of type bool' });
  });
});
