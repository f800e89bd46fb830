/**
 * `npm run fuzz -- [--budget 10m] [--seed N] [--path P] [--timeout 10s] [--log FILE]`: the HTTP
 * fuzzer of test/fuzz for as long as asked, with progress, memory and throughput every few
 * seconds. A failure prints its seeds, the commands that replay it and the shrunk request, and
 * exits 1. `--path` replays one reported request (with the batch seed the report names); `--log`
 * appends every request to FILE before it is sent, for a run that dies (out of memory) instead
 * of failing.
 */
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseDuration } from '../src/core/duration.ts';
import { describeRequest } from '../test/fuzz/requests.ts';
import { runFuzz, summary, type Tally } from '../test/fuzz/run.ts';

function fail(message: string): never {
  console.error(`fuzz: ${message}`);
  console.error('usage: npm run fuzz -- [--budget 10m] [--seed N] [--path P] [--timeout 10s] [--log FILE]');
  process.exit(2);
}

function milliseconds(flag: string, text: string): number {
  const ms = parseDuration(text);
  if (ms === null || ms <= 0) fail(`--${flag} must be a duration such as 30s or 10m, not ${JSON.stringify(text)}`);
  return ms;
}

let args: { budget?: string; seed?: string; path?: string; timeout?: string; log?: string };
try {
  args = parseArgs({ options: { budget: { type: 'string' }, seed: { type: 'string' }, path: { type: 'string' }, timeout: { type: 'string' }, log: { type: 'string' } }, strict: true }).values;
} catch (e) {
  fail((e as Error).message);
}
const budgetMs = milliseconds('budget', args.budget ?? '60s');
const timeoutMs = milliseconds('timeout', args.timeout ?? '10s');
const seed = args.seed === undefined ? Date.now() % 2 ** 31 : Number(args.seed);
if (!Number.isSafeInteger(seed)) fail(`--seed must be an integer, not ${JSON.stringify(args.seed)}`);

console.log(`fuzz: seed ${seed}, budget ${args.budget ?? '60s'}${args.path === undefined ? '' : `, replaying path ${args.path}`}`);
let lastPrint = performance.now();
const progress = (t: Tally): void => {
  const now = performance.now();
  if (now - lastPrint < 5000) return;
  lastPrint = now;
  const seconds = (now - t.started) / 1000;
  console.log(`  ${seconds.toFixed(0)} s, ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB: ${summary({ tally: t, seconds })}`);
};
const log = args.log;
const logRequest = log === undefined ? {} : { onRequest: (r: Parameters<typeof describeRequest>[0]) => appendFileSync(log, `${describeRequest(r)}\n---\n`) };
const outcome = await runFuzz({ budgetMs, seed, timeoutMs, onProgress: progress, ...logRequest, ...(args.path === undefined ? {} : { path: args.path }) });
console.log(`fuzz: ${summary(outcome)}`);
if (outcome.failure !== null) {
  console.error(outcome.failure);
  process.exit(1);
}
console.log('fuzz: no failure');
