/**
 * meta/v1 Time and MicroTime from their protobuf Timestamp {seconds, nanos}, written as their Go
 * MarshalJSON writes them. Time keeps whole seconds: apimachinery's Time.Unmarshal drops the
 * nanos, because the JSON form never carried them. MicroTime keeps microseconds, truncated.
 */

/** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the years RFC 3339 can spell in four digits. */
const secondsMin = -62_167_219_200;
const secondsMax = 253_402_300_799;
/** Go's zero time.Time (0001-01-01T00:00:00Z), which MarshalJSON writes as null. */
const goZeroSeconds = -62_135_596_800;

export type FormattedTime = { readonly ok: true; readonly value: string | null } | { readonly ok: false; readonly message: string };

function rfc3339(seconds: number, fraction: string): FormattedTime {
  if (seconds < secondsMin || seconds > secondsMax) return { ok: false, message: `timestamp ${seconds}s is outside the years 0000-9999` };
  return { ok: true, value: `${new Date(seconds * 1000).toISOString().slice(0, 19)}${fraction}Z` };
}

export function formatTime(seconds: number): FormattedTime {
  if (seconds === goZeroSeconds) return { ok: true, value: null };
  return rfc3339(seconds, '');
}

export function formatMicroTime(seconds: number, nanos: number): FormattedTime {
  // Duration.Truncate(Microsecond) rounds toward zero, then time.Unix carries whole seconds
  // out of nanos outside [0, 1e9).
  const truncated = Math.trunc(nanos / 1000) * 1000;
  const carry = Math.floor(truncated / 1e9);
  const s = seconds + carry;
  const micros = (truncated - carry * 1e9) / 1000;
  if (s === goZeroSeconds && micros === 0) return { ok: true, value: null };
  return rfc3339(s, `.${String(micros).padStart(6, '0')}`);
}
