/**
 * Properties of label selectors, checked with fast-check:
 * - a selector generated as a structure, printed with random whitespace and parsed, matches
 *   exactly the label maps a direct model of Kubernetes' semantics says it should;
 * - labelSelectorToString round-trips through parseLabelSelector and is a fixed point.
 * Keys and values come from small pools so that matches and misses both happen often.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelSelectorToString } from '../../../src/registry/selectors/labelSelectorToString.ts';
import { matchesLabels } from '../../../src/registry/selectors/matchesLabels.ts';
import { parseLabelSelector } from '../../../src/registry/selectors/parseLabelSelector.ts';

const keys = ['a', 'b', 'app', 'example.com/tier', 'in', 'notin'] as const;
const values = ['', '0', '1', '2', '10', '007', 'web', 'db', 'in'] as const;
const integers = ['0', '1', '2', '5', '10', '007'] as const;

type Op = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | '>' | '<';
interface Req {
  readonly key: string;
  readonly op: Op;
  readonly values: readonly string[];
}

const arbKey = fc.constantFrom(...keys);
const arbValue = fc.constantFrom(...values);
const arbWs = fc.constantFrom('', ' ', '  ', '\t');

const arbReq: fc.Arbitrary<Req> = fc.oneof(
  fc.record({ key: arbKey, op: fc.constantFrom<Op>('=', '==', '!='), values: fc.tuple(arbValue) }),
  fc.record({ key: arbKey, op: fc.constantFrom<Op>('in', 'notin'), values: fc.array(arbValue, { minLength: 1, maxLength: 4 }) }),
  fc.record({ key: arbKey, op: fc.constantFrom<Op>('exists', '!'), values: fc.constant([]) }),
  fc.record({ key: arbKey, op: fc.constantFrom<Op>('>', '<'), values: fc.tuple(fc.constantFrom(...integers)) }),
);

const arbLabels = fc.dictionary(arbKey, arbValue, { maxKeys: keys.length });

/** Prints a requirement with whitespace `w` between tokens (where the grammar allows it). */
function print(r: Req, w: string): string {
  switch (r.op) {
    case 'exists':
      return `${w}${r.key}${w}`;
    case '!':
      return `${w}!${w}${r.key}${w}`;
    case 'in':
    case 'notin':
      // `in`/`notin` need whitespace around them to be separate tokens.
      return `${w}${r.key} ${r.op} ${w}(${r.values.join(`${w},${w}`)})${w}`;
    default:
      return `${w}${r.key}${w}${r.op}${w}${r.values[0] ?? ''}${w}`;
  }
}

/** Kubernetes' semantics, stated directly on the generated structure. */
function model(r: Req, labels: Record<string, string>): boolean {
  const present = Object.prototype.hasOwnProperty.call(labels, r.key);
  const v = present ? labels[r.key]! : undefined;
  switch (r.op) {
    case '=':
    case '==':
    case 'in':
      return present && r.values.includes(v!);
    case '!=':
    case 'notin':
      return !present || !r.values.includes(v!);
    case 'exists':
      return present;
    case '!':
      return !present;
    case '>':
    case '<': {
      if (!present || !/^-?\d+$/.test(v!)) return false;
      const have = Number(v);
      const want = Number(r.values[0]);
      return r.op === '>' ? have > want : have < want;
    }
  }
}

describe('label selector properties', () => {
  it('matches exactly what the model says', () => {
    fc.assert(
      fc.property(fc.array(arbReq, { maxLength: 5 }), arbWs, fc.array(arbLabels, { minLength: 1, maxLength: 5 }), (reqs, w, labelMaps) => {
        const parsed = parseLabelSelector(reqs.map((r) => print(r, w)).join(','));
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        for (const labels of labelMaps) {
          expect(matchesLabels(parsed.selector, labels)).toBe(reqs.every((r) => model(r, labels)));
        }
      }),
    );
  });

  it('round-trips labelSelectorToString through parseLabelSelector', () => {
    fc.assert(
      fc.property(fc.array(arbReq, { maxLength: 6 }), arbWs, (reqs, w) => {
        const first = parseLabelSelector(reqs.map((r) => print(r, w)).join(','));
        if (!first.ok) throw new Error(first.message);
        const text = labelSelectorToString(first.selector);
        const again = parseLabelSelector(text);
        expect(again).toEqual(first);
        if (again.ok) expect(labelSelectorToString(again.selector)).toBe(text);
      }),
    );
  });

  it('never throws on arbitrary text, and answers a message or a selector', () => {
    const alphabet = fc.constantFrom('a', 'b', '1', '-', '.', '/', '=', '!', '(', ')', ',', '<', '>', ' ', 'in', 'notin', '\u0000', 'é');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 20 }), (parts) => {
        const r = parseLabelSelector(parts.join(''));
        if (r.ok) expect(parseLabelSelector(labelSelectorToString(r.selector))).toEqual(r);
        else expect(r.message.length).toBeGreaterThan(0);
      }),
    );
  });
});
