import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildRecorder } from '../../scripts/build-server';
import { openDatabase } from '../../server/db';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The recorder this run built from the current sources (below). */
    builtRecorder: string;
    /** A migrated, otherwise empty SQLite database that each test app starts on a copy of (helpers/test-app.ts). */
    migratedSqlite: string;
  }
}

/**
 * The servers of the server suites start the recorder as the built server does: one JavaScript file that
 * `node` runs alone. It is built here, by the build's own function, from the sources as they are at the
 * start of the run, so an edit is never hidden by an older build. From the sources, through tsx, each of
 * the ~75 recorders of a run cost an esbuild service and 0.1 s more CPU to start, and each cloud server
 * bundled the recorder again to publish it. `tests/server/setup.ts` hands it to the server code.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-test-recorder-'));
  project.provide('builtRecorder', await buildRecorder(dir));
  // Migrated once for the run (testkit/test-database.ts says why), removed with the recorder's folder.
  const templateDir = path.join(dir, 'migrated');
  await (await openDatabase({ dataDir: templateDir, databaseUrl: undefined })).close();
  project.provide('migratedSqlite', path.join(templateDir, 'capture.db'));
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
