import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../lib/clock';
import { newId, isSafeId } from '../ids';
import { ProviderError, type CreateImageRequest, type ProviderImage } from '../provider';
import { readJson, writeJsonAtomic } from '../../../recorder/recorder-state';
import type { RecorderSettings } from '../../../recorder/protocol';
import { copyRuntime, runtimeIn } from './recorder-runtime';
import { latestImage } from '../versions';

const IMAGE_FILE = 'image.json';
const SETTINGS_FILE = 'settings.json';
const RUNTIME_DIR = 'runtime';
/** An image still pending after this long was abandoned (the server stopped while writing it). */
const ABANDONED_AFTER_MS = 5 * 60 * 1000;

interface ImageRecord extends ProviderImage {
  sizeBytes: number;
  updatedAt: string;
}

export interface ImageSource {
  /** Folder holding the recorder runtime files to freeze. */
  runtimeDir: string;
  settings: RecorderSettings;
}

/**
 * Images of the local driver: DATA_DIR/images/<ami_id>/ holds a frozen copy of a recorder runtime
 * (runtime/) and its settings (settings.json), described by image.json. An image is pending while
 * its files are written, then available with its measured size.
 */
export class LocalImageStore {
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly root: string,
    private readonly clock: Clock,
  ) {}

  dirOf(imageId: string): string {
    return path.join(this.root, imageId);
  }

  runtimeDirOf(imageId: string): string {
    return path.join(this.dirOf(imageId), RUNTIME_DIR);
  }

  settingsOf(imageId: string): Partial<RecorderSettings> {
    return readJson<Partial<RecorderSettings>>(path.join(this.dirOf(imageId), SETTINGS_FILE)) ?? {};
  }

  create(request: CreateImageRequest, source: ImageSource): ProviderImage {
    const imageId = newId('ami-local');
    const dir = this.dirOf(imageId);
    fs.mkdirSync(dir, { recursive: true });
    const now = this.clock.now().toISOString();
    const record: ImageRecord = {
      imageId,
      name: request.name,
      description: request.description,
      version: request.version,
      state: 'pending',
      sizeGb: 0,
      sizeBytes: 0,
      createdAt: now,
      updatedAt: now,
      tags: request.tags,
      sourceInstanceId: request.instanceId,
    };
    writeJsonAtomic(path.join(dir, IMAGE_FILE), record);
    // Written after the answer, as EC2 does: the image is listed as pending until its files are in place.
    const write = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.freeze(dir, record, source))
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
    return this.toImage(record);
  }

  private freeze(dir: string, record: ImageRecord, source: ImageSource): void {
    try {
      if (!fs.existsSync(dir)) return; // deleted meanwhile
      const runtime = path.join(dir, RUNTIME_DIR);
      // The instance's recorder as it ran: the built file, or the TypeScript sources of a server run from them.
      const files = runtimeIn(source.runtimeDir)?.files;
      if (!files) throw new Error(`no recorder in ${source.runtimeDir}`);
      copyRuntime({ dir: source.runtimeDir, files }, runtime);
      writeJsonAtomic(path.join(dir, SETTINGS_FILE), source.settings);
      record.sizeBytes = folderSize(dir);
      record.sizeGb = Number((record.sizeBytes / 1024 ** 3).toFixed(6));
      record.state = 'available';
    } catch (error) {
      record.state = 'failed';
      record.description = `${record.description} (image could not be written: ${(error as Error).message})`.trim();
    }
    record.updatedAt = this.clock.now().toISOString();
    if (fs.existsSync(dir)) writeJsonAtomic(path.join(dir, IMAGE_FILE), record);
  }

  list(): ProviderImage[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.root);
    } catch {
      return [];
    }
    const images: ProviderImage[] = [];
    for (const name of names) {
      const record = readJson<ImageRecord>(path.join(this.root, name, IMAGE_FILE));
      if (!record) continue;
      const abandoned =
        record.state === 'pending' &&
        this.clock.now().getTime() - Date.parse(record.updatedAt) > ABANDONED_AFTER_MS &&
        !this.writing();
      images.push(this.toImage(abandoned ? { ...record, state: 'failed' } : record));
    }
    return images.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  get(imageId: string): ProviderImage | undefined {
    if (!isSafeId(imageId)) return undefined;
    return this.list().find((image) => image.imageId === imageId);
  }

  latestAvailable(): ProviderImage | undefined {
    return latestImage(this.list());
  }

  delete(imageId: string): void {
    const image = this.get(imageId);
    if (!image) throw new ProviderError('not_found', `AMI ${imageId} not found`);
    if (image.state === 'pending')
      throw new ProviderError('conflict', `AMI ${imageId} is still being created; delete it once it is available`);
    fs.rmSync(this.dirOf(imageId), { recursive: true, force: true });
  }

  /** Waits for image files being written (used at shutdown and by tests). */
  async settle(): Promise<void> {
    await Promise.all([...this.writes]);
  }

  private writing(): boolean {
    return this.writes.size > 0;
  }

  private toImage(record: ImageRecord): ProviderImage {
    return {
      imageId: record.imageId,
      name: record.name,
      description: record.description,
      version: record.version,
      state: record.state,
      sizeGb: record.sizeGb,
      createdAt: record.createdAt,
      tags: record.tags,
      sourceInstanceId: record.sourceInstanceId,
    };
  }
}

function folderSize(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? folderSize(full) : fs.statSync(full).size;
  }
  return total;
}
