import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const VARIABLE = /^[A-Z][A-Z0-9_]*$/;

/** The variables loadConfig reads, recorded as it reads them from an empty environment. */
function variablesLoadConfigReads(): string[] {
  const names = new Set<string>();
  const note = (key: string | symbol) => {
    if (typeof key === 'string' && VARIABLE.test(key)) names.add(key);
  };
  const env = new Proxy<Record<string, string | undefined>>(
    {},
    {
      get: (_target, key) => (note(key), undefined),
      has: (_target, key) => (note(key), false),
    },
  );
  loadConfig(env);
  return [...names].sort();
}

/** The keys of server/config.ts's environment schema, and any variable it reads from process.env directly. */
function variablesNamedInConfigSource(): string[] {
  const source = read('server/config.ts');
  // From the schema's declaration to its object-wide refinement (indented two spaces, unlike a field's).
  const from = source.indexOf('const envSchema');
  const schema = source.slice(from, source.indexOf('\n  .superRefine(', from));
  const keys = [...schema.matchAll(/^ {4}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]);
  const direct = [...source.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]);
  return [...new Set([...keys, ...direct])].sort();
}

/** Every variable named in the first column of the tables under the README's "## Configuration". */
function variablesInReadmeTable(): string[] {
  const readme = read('README.md');
  const start = readme.indexOf('\n## Configuration\n');
  expect(start, 'README.md has a "## Configuration" section').toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  const rows = readme
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('|'));
  const names = rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]));
  return [...new Set(names)].sort();
}

describe("the README's configuration table", () => {
  it('lists every environment variable server/config.ts reads', () => {
    const documented = new Set(variablesInReadmeTable());
    const missing = variablesLoadConfigReads().filter((name) => !documented.has(name));
    expect(missing, 'add a row for each to README.md, "Configuration"').toEqual([]);
  });

  it('lists no variable the server does not read', () => {
    const readByServer = new Set(variablesLoadConfigReads());
    expect(variablesInReadmeTable().filter((name) => !readByServer.has(name))).toEqual([]);
  });

  it("knows the server's variables from the schema itself: what loadConfig reads is what config.ts names", () => {
    // Guards the way the list is found: were loadConfig to stop reading through the env object (or a
    // variable be read some other way), the two would differ and the table check above would miss it.
    expect(variablesLoadConfigReads()).toEqual(variablesNamedInConfigSource());
    expect(variablesLoadConfigReads()).toEqual(
      expect.arrayContaining(['PORT', 'DATABASE_URL', 'RECORDINGS_PER_INSTANCE']),
    );
  });
});
