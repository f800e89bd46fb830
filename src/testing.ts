/**
 * platform-sim/testing: fast-check arbitraries (taking the caller's `fc`) and the invariant
 * checkers that tests run after every step.
 */
export { dnsLabel, labels, serviceAccount } from './testing/arbitraries.ts';
export type { Fc } from './testing/arbitraries.ts';
export { checkAll, checkers } from './sim/checkers/all.ts';
export type { Checker } from './sim/checkers/types.ts';
