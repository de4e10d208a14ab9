/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { databaseTestFiles } from './tests/support/database-test-files';

const serverPort = process.env.PORT ?? '8000';

/** The server suite: Fastify inject, real SQLite (or PostgreSQL in the `pg` project), real ffmpeg. */
const serverTests = {
  environment: 'node',
  setupFiles: ['tests/server/setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
} as const;

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': `http://127.0.0.1:${serverPort}`,
      '/ws': { target: `ws://127.0.0.1:${serverPort}`, ws: true },
    },
  },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 800 },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/unit/setup.ts'],
        },
      },
      { extends: true, test: { name: 'server', include: ['tests/server/**/*.test.ts'], ...serverTests } },
      // The server files that open a database, again (`npm run test:pg` points them at PostgreSQL).
      { extends: true, test: { name: 'pg', include: databaseTestFiles(), ...serverTests } },
    ],
  },
});
