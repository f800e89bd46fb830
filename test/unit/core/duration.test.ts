/** Go durations and RFC 3339 instants. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalTimestamp, formatDuration, formatInstant, humanAge, parseDuration, parseInstant } from '../../../src/core/duration.ts';

describe('durations', () => {
  it('parses Go syntax', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('')).toBeNull();
    expect(parseDuration('5')).toBeNull();
    expect(parseDuration('5x')).toBeNull();
  });

  it('formats what it parses', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), (ms) => {
        expect(parseDuration(formatDuration(ms))).toBe(ms);
      }),
    );
    expect(formatDuration(5_400_000)).toBe('1h30m0s');
  });

  it('renders instants at second precision', () => {
    expect(formatInstant(parseInstant('2026-01-01T00:00:00.900Z')!)).toBe('2026-01-01T00:00:00Z');
    expect(parseInstant('yesterday')).toBeNull();
  });

  it('prints ages as kubectl does', () => {
    expect(humanAge(45_000)).toBe('45s');
    expect(humanAge(300_000)).toBe('5m');
    expect(humanAge(3 * 3_600_000)).toBe('3h');
    expect(humanAge(2 * 86_400_000)).toBe('2d');
  });
});

describe('canonicalTimestamp', () => {
  it.each([
    ['2026-01-01T00:00:00Z', false, '2026-01-01T00:00:00Z'],
    ['2026-01-01T02:30:00+02:30', false, '2026-01-01T00:00:00Z'],
    ['2026-01-01T00:00:00.999Z', false, '2026-01-01T00:00:00Z'],
    ['2025-12-31T23:00:00-01:00', false, '2026-01-01T00:00:00Z'],
    ['2026-01-01T00:00:00.123456Z', true, '2026-01-01T00:00:00.123456Z'],
    ['2026-01-01T01:00:00.1234567+01:00', true, '2026-01-01T00:00:00.123456Z'],
    ['2026-01-01T00:00:00Z', true, '2026-01-01T00:00:00.000000Z'],
  ])('%s (micro %s) → %s', (text, micro, want) => {
    expect(canonicalTimestamp(text, micro)).toBe(want);
  });
});
