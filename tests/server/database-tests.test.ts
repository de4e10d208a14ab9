import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseTestFiles, opensDatabase, serverTestFiles, skipsPostgresPass } from '../support/database-test-files';

const ROOT = path.resolve(import.meta.dirname, '../..');

// `npm run test:pg` runs only the files that honour TEST_DATABASE_URL (vite.config.ts, project `pg`).
describe('the PostgreSQL pass', () => {
  it('takes every server test that builds an app or opens a database', () => {
    const onPostgres = new Set(databaseTestFiles());
    const left = serverTestFiles().filter(
      (file) =>
        opensDatabase(path.join(ROOT, file)) && !onPostgres.has(file) && !skipsPostgresPass(path.join(ROOT, file)),
    );
    // A file listed here opens SQLite whatever the pass: create its database as tests/server/helpers/test-app.ts does.
    expect(left).toEqual([]);
  });

  it('follows test helpers: a file reaching the database through createTestApp is in, a pure one is out', () => {
    const onPostgres = databaseTestFiles();
    expect(onPostgres).toContain('tests/server/auth/login.test.ts');
    expect(onPostgres).toContain('tests/server/security/hostile-auth.test.ts');
    expect(onPostgres).toContain('tests/server/scheduler/race.test.ts');
    expect(onPostgres).not.toContain('tests/server/scheduler/cron-time.test.ts');
    expect(onPostgres).not.toContain('tests/server/database-tests.test.ts');
  });

  it('leaves out only the files that say why, and keeps a real capture on PostgreSQL', () => {
    const onPostgres = databaseTestFiles();
    const skipped = serverTestFiles().filter((file) => skipsPostgresPass(path.join(ROOT, file)));
    expect(skipped).toContain('tests/server/capture/local-recording.test.ts');
    for (const file of skipped) expect(onPostgres).not.toContain(file);
    expect(onPostgres).toContain('tests/server/scheduler/capture.test.ts');
    expect(skipped).not.toContain('tests/server/scheduler/capture.test.ts');
  });
});
