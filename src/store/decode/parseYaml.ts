/**
 * YAML request bodies (one document) converted to JSON values as sigs.k8s.io/yaml does: YAML 1.2
 * core schema, built prototype-safely, duplicate keys reported as `line <n>: key "<k>" already
 * set in map` (the last occurrence wins), syntax errors as `error converting YAML to JSON: …`.
 * Nesting is bounded by limits.jsonDepthMax, and checked on the tokens before the parser runs:
 * the parser recurses once per level, so a body nested thousands deep would exhaust the stack
 * (fatally, when the overflow meets V8's regexp compiler) before the tree could be checked.
 */
import { CST, isMap, isSeq, isScalar, isPair, Lexer, LineCounter, parseAllDocuments, type Node } from 'yaml';
import { setOwn, hasOwn, type JsonObject, type JsonValue } from '../../core/json.ts';
import { limits } from '../../core/limits.ts';

export type ParsedYaml = { ok: true; value: JsonValue; duplicates: string[] } | { ok: false; message: string };

function convert(node: unknown, lines: LineCounter, duplicates: string[], depth: number): JsonValue {
  if (depth > limits.jsonDepthMax) throw new Error(depthExceeded);
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

const depthExceeded = `exceeded max depth of ${limits.jsonDepthMax}`;

/**
 * Whether a YAML text may nest deeper than `max`, from its tokens alone (the lexer is a flat state
 * machine; quoted and block scalars and comments are single tokens, so what they contain does not
 * count). Flow collections count per open bracket. Block collections are kept on an indentation
 * stack: a sequence at each `-`, a map at each `?` and at each key (the column where the key before
 * a `:` began, or the `:` itself after another indicator), a sequence sitting at its parent key's
 * column being one more level; a line's first token closes the levels indented deeper. Within a
 * small factor of the real depth (flow pairs are maps the count misses), which is all the parser's
 * stack needs: the exact limit is checked on the tree.
 */
function mayNestDeeperThan(text: string, max: number): boolean {
  const stack: { col: number; seq: boolean }[] = [];
  const top = (): { col: number; seq: boolean } | undefined => stack[stack.length - 1];
  const entry = (at: number, seq: boolean): void => {
    while ((top()?.col ?? -1) > at) stack.pop();
    const t = top();
    if (t === undefined || t.col !== at) stack.push({ col: at, seq });
    else if (t.seq && !seq) {
      stack.pop(); // a key after the sequence that was the value of the key before, at its column
      if (top()?.col !== at) stack.push({ col: at, seq });
    } else if (!t.seq && seq) stack.push({ col: at, seq });
  };
  let flow = 0;
  let col = 0;
  let lineStart = true;
  let key: number | undefined; // column where a possible key began on this line
  let afterIndicator = false;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    const at = col;
    const nl = token.lastIndexOf('\n');
    const width = type === 'doc-mode' || type === 'scalar' || type === 'flow-error-end' || type === 'byte-order-mark' ? 0 : token.length;
    col = nl < 0 ? col + width : token.length - nl - 1;
    if (type === 'newline' && flow === 0) {
      lineStart = true;
      key = undefined;
      afterIndicator = false;
    }
    if (type === 'newline' || type === 'space' || type === 'comment' || type === 'doc-mode' || type === 'scalar' || type === 'byte-order-mark') continue;
    if (type === 'flow-error-end') flow = 0;
    else if (type === 'flow-seq-end' || type === 'flow-map-end') flow = Math.max(0, flow - 1);
    else if (flow > 0) flow += type === 'flow-seq-start' || type === 'flow-map-start' ? 1 : 0;
    else {
      if (lineStart) while ((top()?.col ?? -1) > at) stack.pop();
      if (type === 'seq-item-ind' || type === 'explicit-key-ind') entry(at, type === 'seq-item-ind');
      else if (type === 'map-value-ind' && key !== undefined) entry(key, false);
      else if (type === 'map-value-ind' && (lineStart || afterIndicator)) entry(at, false);
      else if (type !== 'map-value-ind') key ??= at;
      if (type === 'flow-seq-start' || type === 'flow-map-start') flow = 1;
      afterIndicator = type === 'seq-item-ind' || type === 'explicit-key-ind' || type === 'map-value-ind' || ((type === 'anchor' || type === 'tag') && afterIndicator);
      if (afterIndicator && type !== 'anchor' && type !== 'tag') key = undefined;
      lineStart = false;
    }
    if (stack.length + flow > max) return true;
  }
  return false;
}

export function parseYamlDocument(text: string): ParsedYaml {
  if (text.length > limits.requestBodyBytesMax) return { ok: false, message: `error converting YAML to JSON: yaml: input exceeds ${limits.requestBodyBytesMax} bytes` };
  // Collections nest at most jsonDepthMax + 1 deep (depths 0 … jsonDepthMax), as in parseJson.
  if (mayNestDeeperThan(text, limits.jsonDepthMax + 1)) return { ok: false, message: `error converting YAML to JSON: ${depthExceeded}` };
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
