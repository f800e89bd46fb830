/**
 * Field paths (scenario checks, fault rules' `when`): `status.readyReplicas`, `spec.containers[0].image`,
 * `status.conditions[type=Approved].status` (the first list element whose field has that value),
 * `metadata.labels["app.platform.io/name"]` (a name with dots or brackets, quoted).
 */
import { getOwn } from './json.ts';

export type Segment = { readonly name: string } | { readonly index: number } | { readonly field: string; readonly value: string };

/** Parses a path; a malformed one is a message. */
export function parseFieldPath(path: string): Segment[] | string {
  const out: Segment[] = [];
  let i = 0;
  const fail = (why: string): string => `field path "${path}": ${why} at character ${i + 1}`;
  while (i < path.length) {
    const c = path[i]!;
    if (c === '.') {
      if (out.length === 0 || i === path.length - 1 || path[i + 1] === '.' || path[i + 1] === '[') return fail('a dot needs a name on each side');
      i++;
      continue;
    }
    if (c === '[') {
      const close = path[i + 1] === '"' ? path.indexOf('"]', i + 2) : path.indexOf(']', i);
      if (close < 0) return fail('"[" is not closed');
      if (path[i + 1] === '"') {
        out.push({ name: path.slice(i + 2, close) });
        i = close + 2;
        continue;
      }
      const inner = path.slice(i + 1, close);
      i = close + 1;
      if (/^\d+$/.test(inner)) out.push({ index: Number(inner) });
      else {
        const eq = inner.indexOf('=');
        if (eq <= 0) return fail(`"[${inner}]" is neither an index nor field=value`);
        out.push({ field: inner.slice(0, eq), value: inner.slice(eq + 1) });
      }
      continue;
    }
    let end = i;
    while (end < path.length && path[end] !== '.' && path[end] !== '[') end++;
    out.push({ name: path.slice(i, end) });
    i = end;
  }
  if (out.length === 0) return 'field path is empty';
  return out;
}

/** The value at `path`, or `found: false` when some part of it is not there. */
export function readFieldPath(value: unknown, segments: readonly Segment[]): { readonly found: boolean; readonly value?: unknown } {
  let v: unknown = value;
  for (const s of segments) {
    if ('name' in s) {
      if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.hasOwn(v, s.name)) return { found: false };
      v = (v as Record<string, unknown>)[s.name];
    } else if ('index' in s) {
      if (!Array.isArray(v) || s.index >= v.length) return { found: false };
      v = v[s.index];
    } else {
      if (!Array.isArray(v)) return { found: false };
      const hit = v.find((e) => typeof e === 'object' && e !== null && String(getOwn(e as Record<string, unknown>, s.field)) === s.value);
      if (hit === undefined) return { found: false };
      v = hit;
    }
  }
  return { found: true, value: v };
}
