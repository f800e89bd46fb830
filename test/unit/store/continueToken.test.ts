/** Continue tokens have the real server's shape and reject what it rejects. */
import { describe, expect, it } from 'vitest';
import { decodeContinue, encodeContinue } from '../../../src/store/continueToken.ts';

describe('continue tokens', () => {
  it('encodes the reference example byte for byte', () => {
    expect(encodeContinue(105, 'bot-b')).toBe('eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTA1LCJzdGFydCI6ImJvdC1iXHUwMDAwIn0');
  });

  it('round-trips and rejects garbage', () => {
    expect(decodeContinue(encodeContinue(7, 'ns/a'))).toEqual({ ok: true, token: { rv: 7, start: 'ns/a\u0000' } });
    expect(decodeContinue('%%%').ok).toBe(false);
    expect(decodeContinue(btoa('{"v":"x","rv":1,"start":"a"}')).ok).toBe(false);
    expect(decodeContinue(btoa('{"v":"meta.k8s.io/v1","rv":1,"start":"../x"}')).ok).toBe(false);
  });
});
