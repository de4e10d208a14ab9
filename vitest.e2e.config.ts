import { defineConfig } from 'vitest/config';
import { scaled } from './testkit/time-scale.js';

// Browser journeys: each file starts the real server on a temporary data directory
// and drives Debian's Chromium through playwright-core.
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['tests/e2e/**/*.e2e.ts'],
    testTimeout: scaled(120_000),
    hookTimeout: scaled(120_000),
    fileParallelism: false,
  },
});
