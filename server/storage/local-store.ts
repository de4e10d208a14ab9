import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { ByteRange, RecordingStore, StoredObject, StoreUsage } from './recording-store';

/** Recordings as files under one folder (DATA_DIR/recordings): what `npm start` uses with no setup. */
export class LocalRecordingStore implements RecordingStore {
  readonly kind = 'local' as const;
  readonly location: string;
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.location = `local:${this.root}`;
  }

  /** The file of a key; keys never leave the root. */
  pathOf(key: string): string {
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Key outside the store: ${key}`);
    return file;
  }

  async putFile(key: string, filePath: string): Promise<void> {
    const target = this.pathOf(key);
    if (path.resolve(filePath) === target) return;
    await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    // Copy then rename: a reader never sees half an object.
    const partial = `${target}.${process.pid}.part`;
    await pipeline(fs.createReadStream(filePath), fs.createWriteStream(partial, { mode: 0o600 }));
    await fs.promises.rename(partial, target);
  }

  async putText(key: string, text: string): Promise<void> {
    const target = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const partial = `${target}.${process.pid}.part`;
    await fs.promises.writeFile(partial, text, { mode: 0o600 });
    await fs.promises.rename(partial, target);
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const stat = await fs.promises.stat(this.pathOf(key));
      return stat.isFile() ? { key, size: stat.size } : null;
    } catch {
      return null;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    await fs.promises.access(file, fs.constants.R_OK);
    return fs.createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async list(prefix: string): Promise<StoredObject[]> {
    // Walk from the deepest folder the prefix names; its last part may be the start of a file name.
    const folderPart = prefix.slice(0, Math.max(0, prefix.lastIndexOf('/')));
    const folder = folderPart ? this.pathOf(folderPart) : this.root;
    const found: StoredObject[] = [];
    const walk = async (dir: string): Promise<void> => {
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile() && !entry.name.endsWith('.part')) {
          const key = path.relative(this.root, full).split(path.sep).join('/');
          if (!key.startsWith(prefix)) continue;
          const stat = await fs.promises.stat(full);
          found.push({ key, size: stat.size, modifiedAt: stat.mtime.toISOString() });
        }
      }
    };
    await walk(folder);
    return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async deletePrefix(prefix: string): Promise<number> {
    const objects = await this.list(prefix);
    for (const object of objects) await fs.promises.rm(this.pathOf(object.key), { force: true });
    if (prefix.endsWith('/')) await fs.promises.rm(this.pathOf(prefix.slice(0, -1)), { recursive: true, force: true });
    return objects.length;
  }

  async signedUrl(): Promise<string | null> {
    return null;
  }

  async usage(): Promise<StoreUsage> {
    await fs.promises.mkdir(this.root, { recursive: true, mode: 0o700 });
    const objects = await this.list('');
    const disk = await fs.promises.statfs(this.root);
    return {
      usedBytes: objects.reduce((sum, o) => sum + o.size, 0),
      freeBytes: Number(disk.bavail) * Number(disk.bsize),
    };
  }
}
