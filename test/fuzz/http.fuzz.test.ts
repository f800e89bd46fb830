/**
 * Issue 16, fuzzing in the suite: random and mutated requests against `serve` over plain HTTP for
 * a bounded budget (FUZZ_BUDGET_MS, default 25 s), one server for the file. The properties and
 * the requests are in run.ts and requests.ts; a failure prints its seeds, both replay commands
 * and the shrunk request. `npm run fuzz -- --budget 10m` runs the same for longer.
 */
import { describe, expect, it } from 'vitest';
import { runFuzz, summary } from './run.ts';

const budgetMs = Number(process.env['FUZZ_BUDGET_MS'] ?? 25_000);
const seed = Number(process.env['FC_SEED'] ?? 20261124);

describe('HTTP fuzzing', () => {
  it('answers random and mutated requests without a 5xx, a hang or a change on rejection', { timeout: budgetMs + 120_000 }, async () => {
    const outcome = await runFuzz({ budgetMs, seed });
    console.log(`fuzz: ${summary(outcome)}`);
    expect(outcome.failure).toBeNull();
    expect(outcome.tally.requests).toBeGreaterThan(100);
  });
});
