/**
 * PEM blocks exactly as Go's `encoding/pem.Decode` finds them, because Kubernetes' validation
 * messages depend on its quirks: text before, between and after blocks is skipped; a block whose
 * END line or base64 body is malformed is not a block at all (the scan goes on after its BEGIN
 * line); `Key: value` lines after BEGIN are headers. Input and output are binary strings (one
 * char per byte, see goBase64.ts).
 */
import { decodeGoBase64 } from './goBase64.ts';

export interface PemBlock {
  readonly type: string;
  /** Number of distinct header keys (Go keeps them in a map). */
  readonly headerCount: number;
  readonly bytes: Uint8Array;
}

const pemStart = '\n-----BEGIN ';
const pemEnd = '\n-----END ';
const pemEndOfLine = '-----';

/** Go's getLine: one line without its `\n` (and `\r`), trailing spaces and tabs trimmed. */
function getLine(data: string): [string, string] {
  let i = data.indexOf('\n');
  let j: number;
  if (i < 0) {
    i = data.length;
    j = i;
  } else {
    j = i + 1;
    if (i > 0 && data[i - 1] === '\r') i--;
  }
  return [data.slice(0, i).replace(/[ \t]+$/, ''), data.slice(j)];
}

/** Headers until the first line without a colon; null when the data ends first. */
function readHeaders(data: string): { keys: Set<string>; rest: string } | null {
  const keys = new Set<string>();
  let rest = data;
  for (let guard = 0; guard <= data.length; guard++) {
    if (rest.length === 0) return null;
    const [line, next] = getLine(rest);
    const colon = line.indexOf(':');
    if (colon < 0) break;
    keys.add(line.slice(0, colon).trim());
    rest = next;
  }
  return { keys, rest };
}

/** The first block of `data` and what follows it, or null when there is none. */
export function decodePem(data: string): { block: PemBlock; rest: string } | null {
  let rest = data;
  // Every pass moves past at least one BEGIN marker, so the data length bounds the passes.
  for (let guard = 0; guard <= data.length; guard++) {
    if (rest.startsWith(pemStart.slice(1))) rest = rest.slice(pemStart.length - 1);
    else {
      const at = rest.indexOf(pemStart);
      if (at < 0) return null;
      rest = rest.slice(at + pemStart.length);
    }
    let typeLine: string;
    [typeLine, rest] = getLine(rest);
    if (!typeLine.endsWith(pemEndOfLine)) continue;
    typeLine = typeLine.slice(0, -pemEndOfLine.length);
    const headers = readHeaders(rest);
    if (headers === null) return null;
    rest = headers.rest;
    let endIndex: number;
    let endTrailerIndex: number;
    // Without headers the END line may follow at once, with no newline before it.
    if (headers.keys.size === 0 && rest.startsWith(pemEnd.slice(1))) {
      endIndex = 0;
      endTrailerIndex = pemEnd.length - 1;
    } else {
      endIndex = rest.indexOf(pemEnd);
      endTrailerIndex = endIndex + pemEnd.length;
    }
    if (endIndex < 0) continue;
    const trailerLength = typeLine.length + pemEndOfLine.length;
    const afterEnd = rest.slice(endTrailerIndex);
    if (afterEnd.length < trailerLength) continue;
    const trailer = afterEnd.slice(0, trailerLength);
    if (!trailer.startsWith(typeLine) || !trailer.endsWith(pemEndOfLine)) continue;
    if (getLine(afterEnd.slice(trailerLength))[0].length !== 0) continue;
    // Go removes spaces and tabs, and its base64 skips line breaks: removing those too decodes
    // the same bytes (only success matters here), in one pass.
    const body = decodeGoBase64(rest.slice(0, endIndex).replace(/[ \t\r\n]/g, ''));
    if (!body.ok) continue;
    return { block: { type: typeLine, headerCount: headers.keys.size, bytes: body.bytes }, rest: getLine(rest.slice(endIndex + pemEnd.length - 1))[1] };
  }
  return null;
}

/** Every block in order, as repeated `pem.Decode` calls find them. */
export function decodePemBlocks(data: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  let rest = data;
  for (let guard = 0; guard <= data.length; guard++) {
    const found = decodePem(rest);
    if (found === null) break;
    blocks.push(found.block);
    rest = found.rest;
  }
  return blocks;
}
