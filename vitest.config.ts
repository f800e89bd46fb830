import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    // Test files share each worker's module cache: the library is imported once per worker, not
    // once per file (about a minute of the suite). Tests keep no state in modules but caches.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A fixed fast-check seed can be given with FC_SEED to replay a failure.
    reporters: ['default'],
  },
});
