import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores: one worker per core keeps the corpus suites from starving each other.
    maxWorkers: 2,
  },
});
