/**
 * Issue 13, cold start and fresh worlds. Cold: the built package (built by `npm run bench`) imported
 * in a fresh node process, beside `node -e ''` in the same run (import ≤ 150 ms above it), and the
 * first createSimulation + GET in that process (≤ 20 ms). Warm: createSimulation + first GET in a
 * process that has made one before (≤ 2 ms), and a fast-check property making 1,000 fresh
 * simulations, one request each (< 2 s).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { createSimulation } from './package.ts';
import { fmt, medianMs } from './measure.ts';
import type { Row } from './store.bench.ts';

const root = join(import.meta.dirname, '..');
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Wall time of a fresh `node` running `code` (ms), median of `runs`. */
function nodeMs(code: string, runs: number): number {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, stdio: 'ignore' });
    xs.push(performance.now() - t);
  }
  return median(xs);
}

/** In a fresh process: the import and the first createSimulation + GET, timed inside (ms). */
function firstUse(runs: number): { importMs: number; firstMs: number } {
  const code = `
    const t0 = performance.now();
    const m = await import(${JSON.stringify(join(root, 'dist', 'index.js'))});
    const t1 = performance.now();
    const sim = await m.createSimulation({ seed: 1 });
    sim.requestSync({ method: 'GET', path: '/api/v1/namespaces/default/serviceaccounts/default' });
    process.stdout.write(JSON.stringify({ importMs: t1 - t0, firstMs: performance.now() - t1 }));`;
  const xs: { importMs: number; firstMs: number }[] = [];
  for (let i = 0; i < runs; i++) xs.push(JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root }).toString()) as { importMs: number; firstMs: number });
  return { importMs: median(xs.map((x) => x.importMs)), firstMs: median(xs.map((x) => x.firstMs)) };
}

export async function startupBench(progress: (msg: string) => void): Promise<Row[]> {
  progress('startup: fresh node processes');
  const bare = nodeMs('', 9);
  const imported = nodeMs(`await import(${JSON.stringify(join(root, 'dist', 'index.js'))})`, 9);
  const first = firstUse(9);
  const rows: Row[] = [];
  rows.push({
    what: "import('platform-sim') in a fresh node, whole process (ms)",
    value: `${fmt(imported)} (+${fmt(imported - bare)})`,
    baseline: `${fmt(bare)} (node -e '')`,
    target: '≤ 150 ms above the baseline',
    ok: imported - bare <= 150,
  });
  rows.push({ what: 'first createSimulation + GET in a fresh process (ms)', value: fmt(first.firstMs), baseline: `import itself ${fmt(first.importMs)} ms, timed inside`, target: '≤ 20 ms', ok: first.firstMs <= 20 });

  progress('startup: fresh worlds, warm');
  const get = '/api/v1/namespaces/default/serviceaccounts/default';
  await createSimulation({ seed: 1 });
  const warm = await medianMs(async () => {
    const s = await createSimulation({ seed: 1 });
    s.requestSync({ method: 'GET', path: get });
  }, 51);
  const mapWarm = await medianMs(() => new Map([['default/default', { metadata: { name: 'default' } }]]).get('default/default'), 51);
  rows.push({ what: 'createSimulation + first GET, warm (ms)', value: fmt(warm), baseline: `${fmt(mapWarm)} (a new Map and a get)`, target: '≤ 2 ms', ok: warm <= 2 });
  const t = performance.now();
  await fc.assert(
    fc.asyncProperty(fc.string({ minLength: 1, maxLength: 20 }), async (name) => {
      const s = await createSimulation({ seed: 1 });
      const res = s.requestSync({ method: 'GET', path: `/api/v1/namespaces/default/serviceaccounts/${encodeURIComponent(name)}` });
      return res.status === 200 || res.status === 404 || res.status === 400;
    }),
    { numRuns: 1000 },
  );
  const thousand = performance.now() - t;
  rows.push({ what: '1,000 fresh simulations in a fast-check property, one request each (ms)', value: fmt(thousand), baseline: '', target: '< 2 s', ok: thousand < 2000 });
  return rows;
}
