/**
 * platform-sim/testing takes the caller's fast-check however it was imported: the default
 * export (`import fc from 'fast-check'`) and the namespace (`import * as fc from 'fast-check'`)
 * both type-check as `Fc` and draw the same values from the same seed.
 */
import fcDefault from 'fast-check';
import * as fcNamespace from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dnsLabel, labels, serviceAccount, type Fc } from '../../../src/testing.ts';

const dns = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

describe('platform-sim/testing with either import form of fast-check', () => {
  const forms: [string, Fc][] = [
    ['import fc from', fcDefault],
    ['import * as fc from', fcNamespace],
  ];
  for (const [form, fc] of forms) {
    it(`accepts ${form} 'fast-check'`, () => {
      fcDefault.assert(
        fcDefault.property(serviceAccount(fc), labels(fc), dnsLabel(fc, 8), (sa, ls, name) => {
          expect(sa.metadata.name).toMatch(dns);
          for (const [k, v] of Object.entries(ls)) expect(`${k}=${v}`).toMatch(/^[a-z0-9-]+=[a-z0-9-]+$/);
          expect(name.length).toBeLessThanOrEqual(8);
        }),
        { numRuns: 50 },
      );
    });
  }

  it('draws the same values from the same seed with both forms', () => {
    expect(fcDefault.sample(serviceAccount(fcDefault), { seed: 7, numRuns: 5 })).toEqual(fcNamespace.sample(serviceAccount(fcNamespace), { seed: 7, numRuns: 5 }));
  });
});
