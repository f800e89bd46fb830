/**
 * YAML request bodies (one document) converted to JSON values as sigs.k8s.io/yaml does: YAML 1.2
 * core schema, built prototype-safely, duplicate keys reported as `line <n>: key "<k>" already
 * set in map` (the last occurrence wins), syntax errors as `error converting YAML to JSON: …`.
 */
import { isMap, isSeq, isScalar, isPair, LineCounter, parseAllDocuments, type Node } from 'yaml';
import { setOwn, hasOwn, type JsonObject, type JsonValue } from '../../core/json.ts';
import { limits } from '../../core/limits.ts';

export type ParsedYaml = { ok: true; value: JsonValue; duplicates: string[] } | { ok: false; message: string };

function convert(node: unknown, lines: LineCounter, duplicates: string[], depth: number): JsonValue {
  if (depth > limits.jsonDepthMax) throw new Error(`exceeded max depth of ${limits.jsonDepthMax}`);
  if (node === null || node === undefined) return null;
  if (isScalar(node)) {
    const v = node.value;
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
    if (typeof v === 'bigint') return Number(v);
    return String(v);
  }
  if (isSeq(node)) return node.items.map((x) => convert(x, lines, duplicates, depth + 1));
  if (isMap(node)) {
    const out: JsonObject = {};
    for (const item of node.items) {
      if (!isPair(item)) continue;
      const keyNode = item.key as Node | null;
      const key = isScalar(keyNode) ? String(keyNode.value) : String(convert(keyNode, lines, duplicates, depth + 1));
      if (hasOwn(out, key)) {
        const range = keyNode?.range;
        const line = range !== undefined && range !== null ? lines.linePos(range[0]).line : 0;
        duplicates.push(`line ${line}: key ${JSON.stringify(key)} already set in map`);
      }
      setOwn(out, key, convert(item.value, lines, duplicates, depth + 1));
    }
    return out;
  }
  return null;
}

export function parseYamlDocument(text: string): ParsedYaml {
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines, uniqueKeys: false, version: '1.2', prettyErrors: false });
  if (!Array.isArray(docs)) return { ok: true, value: null, duplicates: [] };
  const real = docs.filter((d) => d.contents !== null || d.errors.length > 0);
  if (real.length > 1) return { ok: false, message: 'error converting YAML to JSON: multiple YAML documents are not supported' };
  const doc = real[0];
  if (doc === undefined) return { ok: true, value: null, duplicates: [] };
  const err = doc.errors[0];
  if (err !== undefined) {
    const line = err.linePos?.[0]?.line ?? 0;
    return { ok: false, message: `error converting YAML to JSON: yaml: line ${line}: ${err.message.split('\n')[0]!.replace(/ at line \d+, column \d+.*$/, '')}` };
  }
  const duplicates: string[] = [];
  try {
    return { ok: true, value: convert(doc.contents, lines, duplicates, 0), duplicates };
  } catch (e) {
    return { ok: false, message: `error converting YAML to JSON: ${(e as Error).message}` };
  }
}
