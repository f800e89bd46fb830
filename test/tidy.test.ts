/**
 * Tidy: reads src/ as text and enforces the rooms of docs/architecture.md and the determinism
 * bans (TigerBeetle's tidy.zig, as a vitest file). Each failure names file:line and the fix.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const all = files(root).map((p) => ({ path: relative(root, p).replaceAll('\\', '/'), text: readFileSync(p, 'utf8') }));
const roomOf = (path: string): string => (path.includes('/') ? path.split('/')[0]! : path);

/** What each room may import (besides itself). Entry files are checked separately. */
const mayImport: Record<string, readonly string[]> = {
  core: [],
  ports: ['core', 'seedrandom'],
  api: ['core'],
  registry: ['core', 'api'],
  store: ['core', 'api', 'registry', 'ports', 'yaml'],
  auth: ['core', 'api', 'registry', 'store'],
  controllers: ['core', 'api', 'registry', 'auth', 'store'],
  endpoints: ['core', 'api', 'registry', 'store', 'auth', 'yaml', '@noble/hashes'],
  sim: ['core', 'ports', 'api', 'registry', 'store', 'auth', 'controllers', 'endpoints', '@noble/hashes'],
  edges: ['*'],
  scenario: ['*'],
  testing: ['*'],
  cli: ['*'],
};

const banned: { re: RegExp; why: string }[] = [
  { re: /Date\.now\(/, why: 'Date.now is banned outside edges: use the world clock' },
  { re: /new Date\(\)/, why: 'argument-less new Date() is banned outside edges: use the world clock' },
  { re: /Math\.random\(/, why: 'Math.random is banned: use a seeded rng stream (ports/rng.ts)' },
  { re: /performance\.now\(/, why: 'performance.now is banned outside edges' },
  { re: /crypto\.randomUUID\(/, why: 'crypto.randomUUID is banned: uids come from store/ids.ts' },
  { re: /\bset(Timeout|Interval)\(/, why: 'timers are banned outside edges: use advance()' },
];

function importsOf(text: string): { spec: string; line: number }[] {
  const out: { spec: string; line: number }[] = [];
  text.split('\n').forEach((l, i) => {
    const m = /^\s*(?:import|export)\s[^'"]*from\s+['"]([^'"]+)['"]/.exec(l) ?? /^\s*import\s+['"]([^'"]+)['"]/.exec(l);
    if (m) out.push({ spec: m[1]!, line: i + 1 });
  });
  return out;
}

function targetRoom(from: string, spec: string): string {
  if (!spec.startsWith('.')) return spec.startsWith('node:') ? 'node:' : spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
  const parts = from.split('/').slice(0, -1);
  for (const seg of spec.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.') parts.push(seg);
  }
  return parts.length > 1 ? parts[0]! : parts.join('/');
}

describe('tidy', () => {
  it('keeps every room to the imports it may use', () => {
    const problems: string[] = [];
    for (const f of all) {
      const room = roomOf(f.path);
      const allowed = mayImport[room];
      if (allowed === undefined || allowed.includes('*')) continue;
      for (const imp of importsOf(f.text)) {
        const target = targetRoom(f.path, imp.spec);
        if (target === room || allowed.includes(target)) continue;
        problems.push(`${f.path}:${imp.line}: ${room}/ may not import ${imp.spec}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('bans wall clock, unseeded randomness and timers outside the edges', () => {
    const problems: string[] = [];
    for (const f of all) {
      const room = roomOf(f.path);
      if (room === 'edges' || room === 'cli') continue;
      f.text.split('\n').forEach((l, i) => {
        for (const b of banned) if (b.re.test(l)) problems.push(`${f.path}:${i + 1}: ${b.why}`);
      });
    }
    expect(problems).toEqual([]);
  });

  it('keeps the pure rooms synchronous: waiting is the job of the edge driver (sans-IO)', () => {
    const pure = ['core', 'ports', 'api', 'registry', 'store', 'auth', 'endpoints', 'controllers', 'sim'];
    const problems: string[] = [];
    for (const f of all) {
      if (!pure.includes(roomOf(f.path))) continue;
      f.text.split('\n').forEach((l, i) => {
        const code = l.replace(/\/\/.*$/, '');
        if (code.trim().startsWith('*')) return;
        if (/\basync\s|\bawait\s|\bPromise\b/.test(code)) problems.push(`${f.path}:${i + 1}: no async, await or Promise in ${roomOf(f.path)}/: return an effect for the driver instead`);
      });
    }
    expect(problems).toEqual([]);
  });

  it('imports jose and @peculiar/x509 only in edges/crypto and seedrandom only in ports', () => {
    const problems: string[] = [];
    for (const f of all) {
      for (const imp of importsOf(f.text)) {
        if ((imp.spec === 'jose' || imp.spec.startsWith('@peculiar/x509')) && !f.path.startsWith('edges/crypto/')) problems.push(`${f.path}:${imp.line}: ${imp.spec} only in edges/crypto`);
        if (imp.spec === 'seedrandom' && !f.path.startsWith('ports/')) problems.push(`${f.path}:${imp.line}: seedrandom only in ports/rng.ts`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps the main entry free of node: imports', () => {
    const problems: string[] = [];
    for (const f of all) {
      const room = roomOf(f.path);
      if (['edges', 'cli', 'testing', 'scenario', 'server.ts', 'testing.ts'].includes(room)) continue;
      for (const imp of importsOf(f.text)) if (imp.spec.startsWith('node:')) problems.push(`${f.path}:${imp.line}: ${imp.spec} outside the edges`);
    }
    expect(problems).toEqual([]);
  });

  it('keeps everything the main entry loads free of node: imports and Buffer (it runs in browsers)', () => {
    const byPath = new Map(all.map((f) => [f.path, f]));
    const seen = new Set<string>();
    const queue = ['index.ts'];
    const problems: string[] = [];
    for (let i = 0; i < queue.length && i < 10_000; i++) {
      const path = queue[i]!;
      if (seen.has(path)) continue;
      seen.add(path);
      const f = byPath.get(path);
      if (f === undefined) continue;
      f.text.split('\n').forEach((l, n) => {
        if (/\bBuffer\./.test(l) && !l.trim().startsWith('*') && !l.trim().startsWith('//')) problems.push(`${path}:${n + 1}: Buffer is Node-only`);
      });
      for (const imp of importsOf(f.text)) {
        if (imp.spec.startsWith('node:')) {
          problems.push(`${path}:${imp.line}: ${imp.spec} is loaded by the main entry`);
          continue;
        }
        if (!imp.spec.startsWith('.')) continue;
        const parts = path.split('/').slice(0, -1);
        for (const seg of imp.spec.split('/')) {
          if (seg === '..') parts.pop();
          else if (seg !== '.') parts.push(seg);
        }
        queue.push(parts.join('/'));
      }
    }
    expect(seen.has('edges/simulation/create.ts')).toBe(true);
    expect(problems).toEqual([]);
  });

  it('has no @ts-ignore and no unbounded loops', () => {
    const problems: string[] = [];
    for (const f of all) {
      f.text.split('\n').forEach((l, i) => {
        if (l.includes('@ts-ignore')) problems.push(`${f.path}:${i + 1}: @ts-ignore`);
        if (/while \(true\)|for \(;;\)/.test(l)) problems.push(`${f.path}:${i + 1}: unbounded loop: bound it with a limit from core/limits.ts`);
      });
    }
    expect(problems).toEqual([]);
  });
});
