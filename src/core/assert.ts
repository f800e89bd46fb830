/**
 * Assertions guard our own invariants. A failed assertion is a bug in platform-sim, never a
 * user mistake: user mistakes come back as `Status` data (see status.ts).
 */
export class InvariantError extends Error {
  override readonly name = 'InvariantError';
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new InvariantError(message);
}

export function assertNever(value: never, what = 'value'): never {
  throw new InvariantError(`unexpected ${what}: ${JSON.stringify(value)}`);
}
