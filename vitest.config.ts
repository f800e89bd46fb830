import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A fixed fast-check seed can be given with FC_SEED to replay a failure.
    reporters: ['default'],
  },
});
