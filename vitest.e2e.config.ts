import { defineConfig } from 'vitest/config';
import { LongFilesFirst } from './tests/support/long-files-first.js';
import { scaled } from './testkit/time-scale.js';

// Browser journeys: each file starts the real server on a temporary data directory and a free port,
// and drives Debian's Chromium through playwright-core. Two files at once: the longest (a 30 s test
// recording, a cloud recording on moto) wait on real time, and start first beside the rest.
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['tests/e2e/**/*.e2e.ts'],
    testTimeout: scaled(120_000),
    hookTimeout: scaled(120_000),
    // What the page shows after a click or a keystroke (a debounced search, a refetch) can take seconds
    // on a busy machine: vitest's default of 1 s failed a clean-clone CI run.
    expect: { poll: { timeout: scaled(10_000), interval: 100 } },
    maxWorkers: 2,
    // Every vi.spyOn is undone before the next test (as in every suite: vite.config.ts).
    restoreMocks: true,
    sequence: { sequencer: LongFilesFirst },
  },
});
