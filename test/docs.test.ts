/**
 * The README's example and every complete example of the docs chapters run as written: their
 * TypeScript blocks are extracted and executed against the library, so the documentation cannot
 * drift from the code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as platformSim from '../src/index.ts';

function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** A docs chapter's example: the body of an async function with `createSimulation` and `assert` in scope. */
async function runExample(code: string): Promise<void> {
  const body = code.replace(/^import .*$/gm, '');
  const assert = (ok: unknown, what = 'assertion'): void => {
    if (!ok) throw new Error(`docs example: ${what} failed`);
  };
  const run = new Function('createSimulation', 'assert', `return (async () => { ${body} })();`) as (c: unknown, a: unknown) => Promise<void>;
  await run(platformSim.createSimulation, assert);
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
    const body = example!.replace(/^import .*$/gm, '').replace(/\bres\.(\w+)(\.\w+)*;/g, '');
    const run = new Function('createSimulation', `return (async () => { ${body}; return { sim, res }; })();`) as (c: unknown) => Promise<{ sim: platformSim.Simulation; res: platformSim.SimResponse }>;
    const { sim, res } = await run(platformSim.createSimulation);
    expect(res.status).toBe(201);
    expect(sim.now()).toBe('2026-01-01T00:01:30Z');
  });
});
