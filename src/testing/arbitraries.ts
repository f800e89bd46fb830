/**
 * fast-check arbitraries for platform-sim objects. They take the caller's `fc` so that the
 * caller's fast-check version and seed govern them (no second copy of fast-check), however the
 * caller imported it: `import fc from 'fast-check'` (the default export, which has no `default`
 * of its own) and `import * as fc from 'fast-check'` (the namespace) both fit `Fc`.
 */
import type * as FastCheck from 'fast-check';

/** The part of fast-check the arbitraries use. */
export type Fc = Pick<typeof FastCheck, 'array' | 'boolean' | 'constant' | 'constantFrom' | 'dictionary' | 'integer' | 'oneof' | 'option' | 'record' | 'string' | 'tuple' | 'uniqueArray'>;

/** DNS-1123 labels: what ServiceAccount, Pod and Namespace names accept. */
export function dnsLabel(fc: Fc, maxLength = 20): FastCheck.Arbitrary<string> {
  const inner = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-'), maxLength: Math.max(0, maxLength - 2) });
  const edge = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789');
  return fc.tuple(edge, inner, edge).map(([a, b, c]) => (b === '' ? a : `${a}${b}${c}`));
}

export function labels(fc: Fc): FastCheck.Arbitrary<Record<string, string>> {
  return fc.dictionary(dnsLabel(fc, 10), dnsLabel(fc, 10), { maxKeys: 3 });
}

/** A valid ServiceAccount body for a create request. */
export function serviceAccount(fc: Fc): FastCheck.Arbitrary<{ metadata: { name: string; labels: Record<string, string> }; secrets: { name: string }[]; automountServiceAccountToken?: boolean }> {
  return fc.record(
    {
      metadata: fc.record({ name: dnsLabel(fc), labels: labels(fc) }),
      secrets: fc.uniqueArray(dnsLabel(fc, 12), { maxLength: 3 }).map((ns) => ns.map((name) => ({ name }))),
      automountServiceAccountToken: fc.boolean(),
    },
    { requiredKeys: ['metadata', 'secrets'] },
  );
}
