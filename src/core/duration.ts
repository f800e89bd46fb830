/**
 * Virtual time. Instants are integer milliseconds since the Unix epoch; they are rendered as
 * RFC 3339 with second precision (`2025-01-01T00:00:00Z`), as Kubernetes' metav1.Time does.
 * Durations use Go syntax (`500ms`, `30s`, `1h30m`).
 */
import { getOwn } from './json.ts';
export type Instant = number;
export type Millis = number;

const units: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses a Go duration; returns null when malformed. */
export function parseDuration(text: string): Millis | null {
  if (text === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/y;
  let total = 0;
  let pos = 0;
  let sign = 1;
  if (text.startsWith('-')) {
    sign = -1;
    pos = 1;
  }
  if (pos >= text.length) return null;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (m === null) return null;
    total += Number(m[1]) * getOwn(units, m[2]!)!;
    pos = re.lastIndex;
  }
  return sign * Math.round(total);
}

/** Formats milliseconds as a Go duration (`1h30m0s`, `500ms`, `0s`). */
export function formatDuration(ms: Millis): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(ms);
  if (rest < 1000) return `${neg ? '-' : ''}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = rest / 1000;
  let out = '';
  if (h > 0) out += `${h}h`;
  if (h > 0 || m > 0) out += `${m}m`;
  out += `${s}s`;
  return (neg ? '-' : '') + out;
}

let lastInstant = Number.NaN;
let lastFormatted = '';

/** RFC 3339, second precision, UTC. (Virtual time rarely moves between calls: the last is kept.) */
export function formatInstant(t: Instant): string {
  if (t === lastInstant) return lastFormatted;
  const iso = new Date(t).toISOString();
  lastInstant = t;
  lastFormatted = `${iso.slice(0, 19)}Z`;
  return lastFormatted;
}

/** RFC 3339 with microseconds (metav1.MicroTime). */
export function formatMicroInstant(t: Instant): string {
  const iso = new Date(t).toISOString();
  return `${iso.slice(0, 23)}000Z`;
}

/**
 * A valid RFC 3339 timestamp as Go's metav1 types write it back: in UTC with `Z`; whole seconds for
 * Time (its JSON drops fractions), six fraction digits for MicroTime.
 */
export function canonicalTimestamp(text: string, micro: boolean): string {
  if (micro ? /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/.test(text) : /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(text)) return text;
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(text);
  if (m === null) return text;
  // The seconds move to UTC through Date; the fraction is kept digit for digit (Date holds milliseconds only).
  const seconds = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(seconds)) return text;
  const utc = `${new Date(seconds).toISOString().slice(0, 19)}`;
  return micro ? `${utc}.${(m[2] ?? '').padEnd(6, '0').slice(0, 6)}Z` : `${utc}Z`;
}

// The last timestamp read, as for formatting: managed-field times are compared on every write,
// and most carry the same instant.
let lastParsedText = '';
let lastParsed: Instant | null = null;

/** Parses an RFC 3339 timestamp; returns null when malformed. */
export function parseInstant(text: string): Instant | null {
  if (text === lastParsedText) return lastParsed;
  let t: Instant | null = null;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text)) {
    const parsed = Date.parse(text);
    t = Number.isNaN(parsed) ? null : parsed;
  }
  lastParsedText = text;
  lastParsed = t;
  return t;
}

/** Short human age as kubectl prints it: `45s`, `5m`, `3h`, `2d`. */
export function humanAge(ms: Millis): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return `${m}m${s % 60 === 0 ? '' : `${s % 60}s`}`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return `${h}h${m % 60 === 0 ? '' : `${m % 60}m`}`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (d < 8) return `${d}d${h % 24 === 0 ? '' : `${h % 24}h`}`;
  if (d < 365 * 2) return `${d}d`;
  return `${Math.floor(d / 365)}y`;
}
