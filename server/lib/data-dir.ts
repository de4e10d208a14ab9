import fs from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds the database, the key, recordings and recorder state: readable by this user only.
 * The umask makes everything created from now on private (SQLite's WAL and journal, recordings,
 * recorder folders: recorders and ffmpeg inherit it); files of earlier versions are tightened here.
 * Called by the launcher, never by tests: the umask is the whole process's.
 */
export function makeDataDirPrivate(dataDir: string): void {
  process.umask(0o077);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dataDir, 0o700);
  for (const entry of fs.readdirSync(dataDir, { withFileTypes: true })) {
    const file = path.join(dataDir, entry.name);
    if (entry.isFile()) fs.chmodSync(file, 0o600);
    else if (entry.isDirectory()) fs.chmodSync(file, 0o700);
  }
}
