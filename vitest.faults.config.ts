import { defineConfig } from 'vitest/config';

// Fault and hostile-input suites: real server processes, real databases, killed and starved on purpose.
export default defineConfig({
  test: {
    name: 'faults',
    environment: 'node',
    include: ['tests/faults/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
