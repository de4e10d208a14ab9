import { defineConfig } from 'vitest/config';
import { LongFilesFirst } from './tests/support/long-files-first.js';
import { scaled } from './testkit/time-scale.js';

// Fault and hostile-input suites: real server processes, real databases, killed and starved on purpose.
// Three files at once: each has its own server, data directory, ports and PostgreSQL cluster, and they
// spend their minutes waiting on failovers and restarts (449 s of files took 91 s of CPU); the longest
// start first.
export default defineConfig({
  test: {
    name: 'faults',
    environment: 'node',
    include: ['tests/faults/**/*.test.ts'],
    setupFiles: ['tests/faults/support/remove-temporary-dirs.ts'],
    testTimeout: scaled(120_000),
    hookTimeout: scaled(120_000),
    maxWorkers: 3,
    // Every vi.spyOn is undone before the next test (as in every suite: vite.config.ts).
    restoreMocks: true,
    sequence: { sequencer: LongFilesFirst },
  },
});
