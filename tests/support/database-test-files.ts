import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * Which server test files the PostgreSQL pass runs: those that honour TEST_DATABASE_URL, themselves or
 * through a test module they import (test-app.ts, the scheduler's SchedulerEnv...). A file that never
 * reads it runs on SQLite whatever the pass, so running it again proves nothing more. Decided from the
 * source at each run, so a new database test is never left out; tests/server/database-tests.test.ts
 * checks that every test that opens a database honours the variable.
 */

// import.meta.url, not dirname: vite.config.ts imports this module through Vite's config bundler.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TESTS = path.join(ROOT, 'tests');
const RELATIVE_IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function resolveModule(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')];
  return candidates.find((file) => /\.tsx?$/.test(file) && fs.existsSync(file));
}

/** The file and the test modules (under tests/) it imports at run time, transitively. */
export function testModuleClosure(file: string): string[] {
  const seen = new Set<string>();
  const visit = (current: string) => {
    if (seen.has(current) || !current.startsWith(TESTS)) return;
    seen.add(current);
    const source = fs.readFileSync(current, 'utf8');
    for (const match of source.matchAll(RELATIVE_IMPORT)) {
      const resolved = resolveModule(current, match[1] ?? match[2]);
      if (resolved) visit(resolved);
    }
  };
  visit(path.resolve(file));
  return [...seen];
}

const mentions = (files: string[], pattern: RegExp) =>
  files.some((file) => pattern.test(fs.readFileSync(file, 'utf8')));

/** True when the file, or a test module it imports, reads TEST_DATABASE_URL. */
export const honoursTestDatabase = (file: string): boolean =>
  mentions(testModuleClosure(file), /process\.env\.TEST_DATABASE_URL/);

/** True when the file, or a test module it imports, builds an app or opens a database itself. */
export const opensDatabase = (file: string): boolean =>
  mentions(testModuleClosure(file), /\b(?:buildApp|openDatabase)\(/);

export function serverTestFiles(): string[] {
  return fs
    .readdirSync(path.join(TESTS, 'server'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.posix.join('tests/server', file.split(path.sep).join('/')))
    .sort();
}

/**
 * A file leaves the PostgreSQL pass with a line `// PostgreSQL pass: skipped: <why>`, the reason
 * required. Meant for the real-time media files: a minute of wall-clock recording each, whose database
 * calls are the repository calls that other files of the pass make (scheduler/capture.test.ts keeps a
 * real capture launched by the scheduler on PostgreSQL).
 */
const SKIPS_POSTGRES_PASS = /^\/\/ PostgreSQL pass: skipped: \S.{19,}$/m;

export const skipsPostgresPass = (file: string): boolean => SKIPS_POSTGRES_PASS.test(fs.readFileSync(file, 'utf8'));

/** Paths relative to the repository root, for vitest's include. */
export const databaseTestFiles = (): string[] =>
  serverTestFiles().filter(
    (file) => honoursTestDatabase(path.join(ROOT, file)) && !skipsPostgresPass(path.join(ROOT, file)),
  );
