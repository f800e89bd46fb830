/**
 * Response encoding: compact JSON ends with a newline, pretty JSON is indented by two spaces,
 * YAML is the JSON with keys sorted as sigs.k8s.io/yaml (go-yaml v2) writes it — YAML 1.1 rules,
 * so strings a 1.1 reader would take for a time or a boolean (`2025-01-01T00:00:00Z`, `on`) are
 * quoted, and a list under a key is not indented — and Tables are built from
 * each kind's columns. Warnings become `Warning: 299 - "<text>"` headers.
 */
import { stringify } from 'yaml';
import type { KubeObject } from '../api/meta.ts';
import type { Instant } from '../core/duration.ts';
import { isObject } from '../core/json.ts';
import { limits } from '../core/limits.ts';
import { defaultColumns } from '../registry/common/tables.ts';
import type { ResourceType } from '../registry/types.ts';
import type { Output } from './negotiate.ts';

export interface EncodedBody {
  readonly contentType: string;
  readonly text: string;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) Object.defineProperty(out, k, { value: sortKeys(v[k]), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

export function contentTypeOf(output: { type: 'json' | 'yaml' }): string {
  return output.type === 'yaml' ? 'application/yaml' : 'application/json';
}

export function encode(body: unknown, output: { type: 'json' | 'yaml' }, pretty: boolean): EncodedBody {
  const contentType = contentTypeOf(output);
  if (output.type === 'yaml') return { contentType, text: stringify(sortKeys(body), { lineWidth: 0, version: '1.1', indentSeq: false }) };
  return { contentType, text: pretty ? JSON.stringify(body, null, 2) : `${JSON.stringify(body)}\n` };
}

function partialObjectMetadata(obj: KubeObject): unknown {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

/** A meta.k8s.io/v1 Table of objects, with the kind's columns (or Name / Created At). */
export function toTable(rt: ResourceType, objects: readonly KubeObject[], listMeta: object, now: Instant, output: Extract<Output, { type: 'table' }>): unknown {
  const columns = rt.table ?? defaultColumns;
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    columnDefinitions: columns.map((c) => ({ name: c.name, type: c.type, format: c.format, description: c.description, priority: c.priority })),
    rows: objects.map((o) => {
      const row: Record<string, unknown> = { cells: columns.map((c) => c.cell(o, now)) };
      if (output.includeObject === 'Metadata') row['object'] = partialObjectMetadata(o);
      else if (output.includeObject === 'Object') row['object'] = { kind: rt.kind, apiVersion: rt.group === '' ? rt.version : `${rt.group}/${rt.version}`, ...o };
      return row;
    }),
  };
}

/** Warning header values: agent `-`, text quoted; long lists are truncated as the real server does. */
export function warningHeaders(warnings: readonly string[]): string[] {
  if (warnings.length === 0) return [];
  const unique = [...new Set(warnings)];
  const total = unique.reduce((n, w) => n + w.length, 0);
  const texts = total > limits.warningsCharsMax ? unique.map((w) => w.slice(0, limits.warningCharsTruncated)) : unique;
  return texts.map((w) => `299 - ${asciiQuoted(w)}`);
}

/**
 * The text quoted, in ASCII: non-ASCII characters (an unknown field the client named `é` or `🦄`)
 * as `\uXXXX` escapes. Go writes them as raw UTF-8, but a header value in Node and in fetch is a
 * string of bytes: a character above U+00FF cannot be written at all (that was a 500), and
 * Node encodes the others as Latin-1 or UTF-8 depending on the body. ASCII is the same bytes on
 * every transport (docs/divergences.md).
 */
function asciiQuoted(text: string): string {
  return JSON.stringify(text).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
