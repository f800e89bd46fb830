/**
 * The README's example runs as written: its TypeScript block is extracted and executed against
 * the library, so the documentation cannot drift from the code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as platformSim from '../src/index.ts';

function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

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
