/**
 * How the fuzzer writes a body: as the JSON or YAML a client means, or as bytes a decoder must
 * refuse without falling over — cut short, with garbage, invalid UTF-8, UTF-16, a byte-order
 * mark, duplicate keys, Latin-1, a trailing NUL.
 */
import { stringify as toYaml } from 'yaml';
import type { Json } from './bodies.ts';

export const encodings = ['json', 'yaml', 'truncated', 'garbage', 'invalidUtf8', 'utf16', 'bom', 'duplicateKeys', 'latin1', 'nul'] as const;
export type Encoding = (typeof encodings)[number];

const encoder = new TextEncoder();
export const bytes = (s: string): Uint8Array => encoder.encode(s);

/** Block YAML; JSON text (also YAML) for values nested too deep for the YAML writer. */
function yamlText(v: Json, json: string): string {
  try {
    return toYaml(v);
  } catch {
    return json;
  }
}

/** The body's bytes; `cut` picks where a cut, an insertion or a bad byte goes. */
export function encode(v: Json, how: Encoding, cut: number): Uint8Array {
  const text = JSON.stringify(v) ?? 'null';
  switch (how) {
    case 'json':
      return bytes(text);
    case 'yaml':
      return bytes(yamlText(v, text));
    case 'truncated':
      return bytes(text.slice(0, cut % Math.max(1, text.length)));
    case 'garbage': {
      const at = cut % Math.max(1, text.length);
      return bytes(`${text.slice(0, at)}${'{}[]:,"\\\u0000x'[cut % 10]}${text.slice(at)}`);
    }
    case 'invalidUtf8': {
      const b = bytes(text);
      const at = cut % Math.max(1, b.length);
      const bad = [[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xc3], [0xf4, 0x90, 0x80, 0x80]][cut % 5]!;
      return new Uint8Array([...b.slice(0, at), ...bad, ...b.slice(at)]);
    }
    case 'utf16':
      return new Uint8Array(Buffer.from(text, 'utf16le'));
    case 'bom':
      return new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(text)]);
    case 'duplicateKeys':
      return bytes(text.replace(/^\{/, '{"metadata":{"name":"dup"},"kind":"Dup",'));
    case 'latin1':
      return new Uint8Array(Buffer.from(`${text.slice(0, -1)}${text.endsWith('}') ? ',"é":"ü"}' : ''}`, 'latin1'));
    case 'nul':
      return bytes(`${text}\u0000`);
  }
}

/** Content types a client should not send, or sends wrongly. */
export const wrongContentTypes = ['application/vnd.kubernetes.protobuf', 'text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/json;;', 'application/', '*/*', '', 'APPLICATION/JSON', 'application/json, application/yaml', 'application/jwk-set+json', 'application/merge-patch+json', 'application/json-patch+json', 'application/apply-patch+yaml', 'application/yaml; charset=utf-8'];
