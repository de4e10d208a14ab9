import { defineConfig } from 'vitest/config';
import { scaled } from './testkit/time-scale.js';

// Fault and hostile-input suites: real server processes, real databases, killed and starved on purpose.
export default defineConfig({
  test: {
    name: 'faults',
    environment: 'node',
    include: ['tests/faults/**/*.test.ts'],
    testTimeout: scaled(120_000),
    hookTimeout: scaled(120_000),
    fileParallelism: false,
  },
});
