/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { consoleChunkGroups } from './scripts/lazy-chunks.js';
import { precompress } from './scripts/precompress.js';
import { databaseTestFiles } from './tests/support/database-test-files.js';
import { LongFilesFirst } from './tests/support/long-files-first.js';
import { scaled } from './testkit/time-scale.js';

const serverPort = process.env.PORT ?? '8000';
const SERVER_WORKERS = Number(process.env.TEST_WORKERS ?? 6);

/** The server suite: Fastify inject, real SQLite (or PostgreSQL in the `pg` project), real ffmpeg. */
const serverTests = {
  environment: 'node' as const,
  // Files share their worker's module cache: each file builds its own apps and databases, and a fresh
  // import of the server for each of 80 files cost more CPU than the tests themselves (auth/: 22 s -> 7 s).
  isolate: false,
  // The recorder built from the current sources, which the servers here start (see the file).
  globalSetup: ['tests/server/global-setup.ts'],
  setupFiles: ['tests/server/setup.ts'],
  testTimeout: scaled(30_000),
  hookTimeout: scaled(60_000),
};

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/api': `http://127.0.0.1:${serverPort}`,
      '/ws': { target: `ws://127.0.0.1:${serverPort}`, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    // A handful of chunks for the signed-in console instead of some 80 (scripts/lazy-chunks.ts).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: consoleChunkGroups([{ name: 'auth', module: 'src/api/auth.ts' }]),
        },
      },
    },
  },
  test: {
    // Every vi.spyOn is undone before the next test, in every project: the unit and server projects share
    // a worker's modules between files (isolate: false), where a spy left behind would outlive its file.
    // A spy made in beforeAll is undone before the first test too: make it in beforeEach.
    restoreMocks: true,
    // Files that wait on real time for minutes start first, beside the rest.
    sequence: { sequencer: LongFilesFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'happy-dom',
          // Two files at once even on two cores (vitest's default there is one): the five largest
          // component files took 227 s one at a time and 122 s two at a time (docs/decisions/001-component-tests-in-happy-dom.md).
          maxWorkers: 2,
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/unit/support/owner-stacks-off.ts', 'tests/unit/setup.ts'],
          testTimeout: scaled(20_000),
          // expect.poll waits as long as testing-library's findBy (tests/unit/setup.ts), not vitest's 1 s.
          expect: { poll: { timeout: scaled(5_000) } },
          // Projects with their own maxWorkers run as separate groups, one after the other.
          sequence: { groupOrder: 0 },
          // One DOM and module cache per worker, not per file: the setup file resets the DOM, msw,
          // the mock store, timers and storage after every test (23 files: 253 s -> 137 s wall).
          isolate: false,
        },
      },
      // Six files at once on two cores (TEST_WORKERS to change it): a score of them wait on live streams,
      // recorders and moto in real time, minutes each on a quarter of a core, and start first
      // (tests/support/long-files-first.ts); the quick files fill the cores beside them. `npm test` runs
      // this project beside the unit project (package.json), each in its own vitest process.
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          sequence: { groupOrder: 1 },
          maxWorkers: SERVER_WORKERS,
          ...serverTests,
        },
      },
      // The server files that open a database, again (`npm run test:pg` points them at PostgreSQL). Four at
      // a time: they wait on the database (70 s of CPU in 144 s two at a time, quiet) and a few take 30-40 s
      // each; four at a time took 104 s with 79 s of CPU, six 94 s with 88 s.
      {
        extends: true,
        test: { name: 'pg', include: databaseTestFiles(), sequence: { groupOrder: 2 }, maxWorkers: 4, ...serverTests },
      },
    ],
  },
});
