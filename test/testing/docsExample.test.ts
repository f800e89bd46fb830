/**
 * The examples of docs/testing-kit.md run as written. They are fenced as ```typescript (not ```ts)
 * because test/docs.test.ts runs ts blocks with only the main entry's exports in scope, and these
 * import from 'platform-sim/testing', fast-check and @kubernetes/client-node too. Every block that makes a simulation is
 * type-checked as a user project compiles it (tsc --strict) and run with those imports in scope.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as platformSim from '../../src/index.ts';
import * as testing from '../../src/testing.ts';

const root = join(import.meta.dirname, '..', '..');
const markdown = readFileSync(join(root, 'docs', 'testing-kit.md'), 'utf8');
const examples = [...markdown.matchAll(/```typescript\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => b.includes('createSimulation('));

function typeErrors(code: string, i: number): string[] {
  const file = join(root, 'test', '.docs-examples', `testing-kit-${i}.mts`);
  const text = `${code}\nexport {};\n`;
  const options: ts.CompilerOptions = {
    strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'], skipLibCheck: true, noEmit: true, allowImportingTsExtensions: true,
    paths: { 'platform-sim': [join(root, 'src', 'index.ts')], 'platform-sim/testing': [join(root, 'src', 'testing.ts')] },
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => f === file || fileExists.call(host, f);
  host.readFile = (f) => (f === file ? text : readFile.call(host, f));
  host.getSourceFile = (f, language, ...rest) => (f === file ? ts.createSourceFile(f, text, language, true) : getSourceFile.call(host, f, language, ...rest));
  const program = ts.createProgram([file], options, host);
  const sf = program.getSourceFile(file)!;
  return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)].map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

async function run(code: string): Promise<void> {
  const js = ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true } }).outputText;
  const body = js.replace(/^import .*$/gm, '').replace(/^export \{\};?$/gm, '');
  const scope: Record<string, unknown> = { ...platformSim, ...testing, fc, assert, k8s };
  const names = Object.keys(scope);
  const f = new Function(...names, `return (async () => { ${body} })();`) as (...args: unknown[]) => Promise<void>;
  await f(...names.map((n) => scope[n]));
}

describe('docs/testing-kit.md', () => {
  it('has runnable examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(2);
    expect(Object.keys(platformSim).filter((n) => n in testing)).toEqual([]);
  });
  examples.forEach((code, i) => {
    it(`type-checks example ${i + 1} as a user project compiles it`, () => {
      expect(typeErrors(code, i)).toEqual([]);
    });
    it(`runs example ${i + 1}`, async () => {
      await run(code);
    });
  });
});
