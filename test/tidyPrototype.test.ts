/**
 * Tidy, prototype lookups (issue 16): no `obj[key]` with a computed string key on a plain object
 * in src/ unless the code shows the key is own (see test/tidy/prototypeLookups.ts for what
 * counts) or the lookup is audited below with its reason. A user-named key (a label, a header, an
 * extra, a body key, a query parameter) looked up any other way finds `constructor` or `toString`
 * on Object.prototype: use getOwn / setOwn (src/core/json.ts), a Map, or a map made by
 * `Object.create(null)`. Each failure names file:line and the expression.
 */
import ts from 'typescript';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prototypeLookups, type Lookup } from './tidy/prototypeLookups.ts';

const project = join(import.meta.dirname, '..');
const root = join(project, 'src');

/** Lookups whose keys never come from a request, each with the reason (`expr` as written, without whitespace; `*`: the whole file). */
const audited: readonly { file: string; expr: string; why: string }[] = [
  { file: 'core/json.ts', expr: 'o[key]', why: 'setOwn itself: plain assignment for every key but __proto__, which is defined' },
  { file: 'store/trie.ts', expr: '*', why: 'slot names are the digits 0–63; leaf keys go through put (defineProperty for __proto__) and hasOwn' },
  { file: 'ports/rng.ts', expr: 'streams[stream]', why: 'stream names are the constants of the rng consumers (uid, names, …)' },
  { file: 'store/world.ts', expr: 'world.objects[resourceId]', why: 'resource ids come from the registry table, never from a request' },
  { file: 'store/objects.ts', expr: 'world.objects[resource]', why: 'resource ids come from the registry table, never from a request' },
  { file: 'store/objects.ts', expr: 'objects[resource]', why: 'resource ids come from the registry table, never from a request' },
  { file: 'store/listPage.ts', expr: 'world.objects[resource]', why: 'resource ids come from the registry table, never from a request' },
  { file: 'store/views.ts', expr: 'world.objects[resource]', why: 'resource ids come from the registry table, never from a request' },
  { file: 'store/upgrade.ts', expr: 'objects[resource]', why: 'resource ids of a saved world, written as own keys of a fresh object' },
  { file: 'auth/rbac/authorize.ts', expr: 'world.objects[resourceId]', why: 'the RBAC resource ids, constants' },
  { file: 'auth/rbac/rulesFor.ts', expr: 'world.objects[resourceId]', why: 'the RBAC resource ids, constants' },
  { file: 'auth/rbac/forbidden.ts', expr: 'escapes[c]', why: 'c is one of & < > (the regular expression of the replace)' },
  { file: 'registry/rbac/accessors.ts', expr: 'o[key]', why: 'every caller passes a literal field name' },
  { file: 'registry/rbac/accessors.ts', expr: 'obj[key]', why: 'every caller passes a literal field name' },
  { file: 'controllers/node-agent/faultMemory.ts', expr: '*', why: 'keys are `<rule index>@<installed at>`, made by nodeFaults.ts' },
  { file: 'controllers/retries.ts', expr: '*', why: 'slots are `<controller>/<key>`: always with a slash, which no prototype member name has' },
  { file: 'store/decode/typedDecode.ts', expr: 'o[keys[i]!]', why: 'copyOf is always called with Object.keys(o)' },
  { file: 'store/decode/parseJson.ts', expr: 'map[e]', why: 'e is the one character after a backslash; no prototype member has a one-character name' },
  { file: 'endpoints/openapi.ts', expr: '*', why: 'schema, field and path names of the served kinds, built from the registry' },
  { file: 'edges/http/server.ts', expr: 'causes[e.code]', why: "errno codes of Node's listen" },
  { file: 'cli/serveFlags.ts', expr: '*', why: "the operator's argv: flag names from fixed lists, and strict parseArgs refuses unknown ones" },
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const isAudited = (l: Lookup, a: (typeof audited)[number]): boolean => l.file === a.file && (a.expr === '*' || l.expr === a.expr);

/** One program for src/ and the in-memory fixtures below (type checking is the slow part: once). */
function analyse(fixtures: ReadonlyMap<string, string>): ts.Program {
  const config = ts.readConfigFile(join(project, 'tsconfig.json'), (p) => ts.sys.readFile(p));
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, project).options;
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) => {
    const text = fixtures.get(name);
    return text === undefined ? getSourceFile(name, version, ...rest) : ts.createSourceFile(name, text, version, true);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => fixtures.has(name) || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => fixtures.get(name) ?? readFile(name);
  return ts.createProgram([...sources(root), ...fixtures.keys()], options, host);
}

/** Each line marked `// flagged` must be reported, and no other. */
const fixture = `
import { hasOwn, getOwn } from '../core/json.ts';
import type { Names } from '../api/names.ts';
export const read = (labels: Record<string, string>, key: string) => labels[key]; // flagged
export function write(out: Record<string, unknown>, key: string, v: unknown) { out[key] = v; } // flagged
export const within = (o: object, key: string) => key in o; // flagged
export function copied(from: Record<string, number>) { const out: Record<string, number> = {}; for (const [k, v] of Object.entries(from)) out[k] = v; return out; } // flagged
export function otherKeys(a: Record<string, number>, b: Record<string, number>) { return Object.keys(a).map((k) => b[k]); } // flagged
export function wrongGuard(a: Record<string, number>, b: Record<string, number>, k: string) { return hasOwn(b, k) ? a[k] : 0; } // flagged
export const guarded = (labels: Record<string, string>, key: string) => (hasOwn(labels, key) ? labels[key] : undefined);
export const helper = (labels: Record<string, string>, key: string) => getOwn(labels, key);
export function earlyExit(o: Record<string, number>, k: string) { if (typeof k !== 'string' || !Object.hasOwn(o, k)) return 0; return o[k]!; }
export function ownKeys(o: Record<string, number>) { let n = 0; for (const k of Object.keys(o).sort()) n += o[k]!; const keys = Object.keys(o); for (let i = 0; i < keys.length; i++) n += o[keys[i]!]!; return n; }
export function noPrototype(key: string) { const m = Object.create(null) as Record<string, number>; m[key] = 1; return m; }
export const arrays = (a: string[], i: number, s: string) => a[i]! + s[i]!;
export const literals = (o: Record<'a' | 'b', number>, k: 'a' | 'b') => o[k];
export const prefixed = (o: Record<string, string>, x: string) => o[\`x-\${x}\`];
export function listed(o: Record<string, unknown>) { for (const k of ['replicas', 'readyReplicas']) o[k] = 0; }
export const named = (labels: Record<string, string>, names: Names) => labels[names.podNameLabel];
export function deleted(o: Record<string, unknown>, k: string) { delete o[k]; }
const has = (o: Record<string, number>, k: string): boolean => Object.hasOwn(o, k) && o[k] !== undefined;
export const viaHelper = (a: Record<string, number>, k: string) => (has(a, k) ? a[k] : 0);
`;

const fixtureName = join(root, '__tidy_fixture__', 'prototypeLookups.ts');
const quantityPath = join(root, 'registry', 'persistent-volume-claim', 'quantity.ts');
const revertedName = join(root, '__tidy_fixture__', 'quantityReverted.ts');
const fixed = 'getOwn(binary, suffix) ?? getOwn(decimal, suffix)';
const quantityText = readFileSync(quantityPath, 'utf8');
const reverted = quantityText.replace(fixed, 'binary[suffix] ?? decimal[suffix]').replaceAll("from '../../core/", "from '../core/");
const program = analyse(
  new Map([
    [fixtureName, fixture],
    [revertedName, reverted],
  ]),
);
const inFixtures = (name: string): boolean => name.includes('/__tidy_fixture__/');
const found = prototypeLookups(program, root, (name) => name.startsWith(root) && !inFixtures(name));

describe('tidy: prototype lookups', () => {
  it('looks up user-keyed maps only with own-property checks (or in an audited place)', () => {
    const problems = found.filter((l) => !audited.some((a) => isAudited(l, a))).map((l) => `${l.file}:${l.line}: ${l.expr} — use getOwn/setOwn (core/json.ts), a Map or Object.create(null)`);
    expect(problems).toEqual([]);
  });

  it('keeps no stale entry in the audited list', () => {
    const stale = audited.filter((a) => !found.some((l) => isAudited(l, a))).map((a) => `${a.file}: ${a.expr}`);
    expect(stale).toEqual([]);
  });

  it('flags the lookups it exists for and accepts the own ones', () => {
    const hits = prototypeLookups(program, root, (name) => name === fixtureName).map((l) => l.line);
    const marked = fixture.split('\n').flatMap((l, i) => (l.endsWith('// flagged') ? [i + 1] : []));
    expect(marked.length).toBe(6);
    expect(hits).toEqual(marked);
  });

  it('catches a real regression: the quantity suffix lookup of issue 16 put back', () => {
    expect(quantityText).toContain(fixed);
    const hits = prototypeLookups(program, root, (name) => name === revertedName).map((l) => l.expr);
    expect(hits).toEqual(['binary[suffix]', 'decimal[suffix]']);
  });
});
