/**
 * The README's example and every complete example of the docs chapters run as written: their
 * TypeScript blocks are extracted and executed against the library, so the documentation cannot
 * drift from the code. Every block is also type-checked as a user's project would compile it
 * (`tsc --strict`, `platform-sim` mapped to src/index.ts): an example that runs but does not
 * compile fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as platformSim from '../src/index.ts';

const root = join(import.meta.dirname, '..');

function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** An example's code as JavaScript (types erased), without its imports. */
function runnable(code: string): string {
  const js = ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true } }).outputText;
  return js.replace(/^import .*$/gm, '').replace(/^export \{\};?$/gm, '');
}

/** A docs chapter's example: the body of an async function with every export of `platform-sim` and `assert` in scope. */
async function runExample(code: string): Promise<void> {
  const body = runnable(code);
  const assert = (ok: unknown, what = 'assertion'): void => {
    if (!ok) throw new Error(`docs example: ${what} failed`);
  };
  const names = Object.keys(platformSim);
  const run = new Function(...names, 'assert', `return (async () => { ${body} })();`) as (...args: unknown[]) => Promise<void>;
  await run(...names.map((n) => (platformSim as Record<string, unknown>)[n]), assert);
}

describe('docs chapters', () => {
  const dir = join(import.meta.dirname, '..', 'docs');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.md')).sort()) {
    // Complete examples (they create their simulation) run; fragments that continue one do not.
    const blocks = tsBlocks(readFileSync(join(dir, file), 'utf8')).filter((b) => b.includes('createSimulation('));
    blocks.forEach((code, i) => {
      it(`runs ${file} example ${i + 1}`, async () => {
        await runExample(code);
      });
    });
  }
});

describe('README', () => {
  it('runs its example', async () => {
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
    const [example] = tsBlocks(readme);
    expect(example).toBeDefined();
    const body = runnable(example!).replace(/\bres\.(\w+)(\.\w+)*;/g, '');
    const run = new Function('createSimulation', `return (async () => { ${body}; return { sim, res }; })();`) as (c: unknown) => Promise<{ sim: platformSim.Simulation; res: platformSim.SimResponse }>;
    const { sim, res } = await run(platformSim.createSimulation);
    expect(res.status).toBe(201);
    expect(sim.now()).toBe('2026-01-01T00:01:30Z');
  });

  it('runs its typed-helpers example', async () => {
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
    const typed = tsBlocks(readme).find((b) => b.includes('sim.get<'));
    expect(typed).toBeDefined();
    const sim = await platformSim.createSimulation({ seed: 1 });
    const run = new Function('sim', `return (async () => { ${runnable(typed!)}; return { uid, names, patched, denied }; })();`) as (s: unknown) => Promise<Record<string, any>>;
    const out = await run(sim);
    expect(out['uid']).toMatch(/^[0-9a-f-]{36}$/);
    expect(out['names']).toEqual([]);
    expect(out['patched'].body.metadata.labels).toEqual({ team: 'a' });
    expect([out['denied'].status, out['denied'].body.reason]).toEqual([403, 'Forbidden']);
  });
});

/** A ```ts block of a markdown file: its code and the line of the file its first line is on. */
interface Block {
  readonly file: string;
  readonly line: number;
  readonly code: string;
}

function blocksOf(file: string): Block[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => ({ file, line: text.slice(0, m.index).split('\n').length + 1, code: m[1]! }));
}

/**
 * Each block as a module of a user's project: a fragment that continues an example (it creates
 * no simulation) gets one first. Virtual files inside the repository, so that `node:` types and
 * client libraries resolve from its node_modules; only they are checked (the library's own
 * sources are checked by `tsc` with the repository's stricter settings).
 */
function typeErrors(blocks: readonly Block[]): string[] {
  const prelude = "import { createSimulation } from 'platform-sim';\nconst sim = await createSimulation();\n";
  const files = new Map<string, { block: Block; offset: number; text: string }>();
  blocks.forEach((block, i) => {
    const fragment = !block.code.includes('createSimulation(');
    const text = `${fragment ? prelude : ''}${block.code}\nexport {};\n`;
    files.set(join(root, 'test', '.docs-examples', `example-${i}.mts`), { block, offset: fragment ? 2 : 0, text });
  });
  const options: ts.CompilerOptions = {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    skipLibCheck: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    paths: {
      'platform-sim': [join(root, 'src', 'index.ts')],
      'platform-sim/server': [join(root, 'src', 'server.ts')],
      'platform-sim/testing': [join(root, 'src', 'testing.ts')],
    },
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => files.has(f) || fileExists.call(host, f);
  host.readFile = (f) => files.get(f)?.text ?? readFile.call(host, f);
  host.getSourceFile = (f, language, ...rest) => {
    const virtual = files.get(f);
    return virtual === undefined ? getSourceFile.call(host, f, language, ...rest) : ts.createSourceFile(f, virtual.text, language, true);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  const out: string[] = [];
  for (const [name, { block, offset }] of files) {
    const sf = program.getSourceFile(name)!;
    for (const d of [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]) {
      const line = d.start === undefined ? 0 : sf.getLineAndCharacterOfPosition(d.start).line - offset;
      out.push(`${block.file}:${block.line + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    }
  }
  return out;
}

describe('docs examples compile', () => {
  // One program for the docs' blocks and a deliberately wrong one (a second program costs seconds).
  const bad = { file: 'bad.md', line: 1, code: "import { createSimulation } from 'platform-sim';\nconst sim = await createSimulation();\nconst n: number = sim.now();\n" };
  let errors: string[] | undefined;
  const check = (): string[] => {
    const files = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
    const blocks = files.flatMap(blocksOf);
    expect(blocks.length).toBeGreaterThan(10);
    return (errors ??= typeErrors([...blocks, bad]));
  };

  it('type-checks every ts block of README.md and docs/*.md under tsc --strict', () => {
    expect(check().filter((e) => !e.startsWith('bad.md:'))).toEqual([]);
  });

  it('catches an example that runs but does not compile', () => {
    expect(check().filter((e) => e.startsWith('bad.md:'))).toEqual(["bad.md:3: Type 'string' is not assignable to type 'number'."]);
  });
});
