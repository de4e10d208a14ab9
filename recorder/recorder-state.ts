/*
 * The recorder's and the server's helpers for the files of DATA_DIR/instances/<id>/ (their names and
 * shapes are in protocol.ts, re-exported here). This file is part of the recorder runtime that images
 * freeze, so it imports nothing but Node's own modules and its siblings.
 */
import fs from 'node:fs';
import path from 'node:path';
import { INSTANCE_FILES, type RecorderConfig } from './protocol';
import { maskUrlSecrets } from './url-secrets';

export * from './protocol';

/**
 * The folder of a capture's pieces: beside its output file (`<stamp>.mp4` -> `<stamp>.parts/`), on the
 * same disk, so a full disk shows while recording and the joined file is renamed into place. It is
 * removed once the pieces are joined.
 */
export function piecesDirOf(config: Pick<RecorderConfig, 'outputPath'>): string {
  return `${config.outputPath.replace(/\.mp4$/i, '')}.parts`;
}

/** Writes JSON so a reader never sees half a file: a temporary file renamed over the old one. */
export function writeJsonAtomic(file: string, value: unknown): void {
  writeTextAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Write, then rename: a reader sees the old text or the new, never a file cut short or empty. */
export function writeTextAtomic(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

/**
 * Notes the folder's recorder. Atomic: a server reading the file while it was being rewritten found it
 * empty, took the recorder for dead and started a second one in the same folder.
 */
export function writePidFile(dir: string, pid: number): void {
  writeTextAtomic(path.join(dir, INSTANCE_FILES.pid), `${pid}\n`);
}

/** A pid from a file that holds one, else undefined. */
export function readPidFile(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `pid` is a live process, and (on Linux) still the one we mean: its command line must contain
 * `marker` (a path only that process has), so a recycled pid is not mistaken for a recorder.
 */
export function processAlive(pid: number | null | undefined, marker?: string): boolean {
  if (!pid || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const status = stat.charAt(stat.lastIndexOf(')') + 2);
    if (status === 'Z' || status === 'X') return false;
    if (marker && !fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) return false;
    return true;
  } catch {
    return false;
  }
}

const LOCK = /^recorder\.lock\.(\d+)$/;
/** Claims that lost a race are retried; this many in a row means the folder is not behaving as a folder. */
const CLAIM_TRIES = 1000;

/**
 * Claims the instance folder for recorder `pid`: null when it holds it, else the pid of the live
 * recorder that does. Claims are numbered generations, recorder.lock.1, .2, ...: the highest one holds.
 * A recorder takes the next number only when the holder of the highest is dead (its command line,
 * which names the folder, is gone), and a number can be created once (a hard link fails if it exists):
 * of recorders started at once, or of two that both found the holder dead, exactly one wins.
 */
export function claimFolder(dir: string, pid = process.pid): number | null {
  const lockOf = (generation: number) => path.join(dir, `recorder.lock.${generation}`);
  const temporary = path.join(dir, `recorder.lock.${pid}.tmp`);
  for (let tries = 0; tries < CLAIM_TRIES; tries++) {
    const generations = fs
      .readdirSync(dir)
      .map((name) => LOCK.exec(name))
      .filter((match) => match !== null)
      .map((match) => Number(match[1]));
    const current = Math.max(0, ...generations);
    const holder = current > 0 ? readPidFile(lockOf(current)) : undefined;
    if (holder === pid) return null;
    if (holder !== undefined && processAlive(holder, dir)) return holder;
    fs.writeFileSync(temporary, `${pid}\n`);
    try {
      fs.linkSync(temporary, lockOf(current + 1));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue; // another claim won: look again
      throw error;
    } finally {
      fs.rmSync(temporary, { force: true });
    }
    for (const generation of generations) fs.rmSync(lockOf(generation), { force: true });
    return null;
  }
  throw new Error(`Could not claim ${dir}: its recorder claims kept changing`);
}

export function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** `text` with the user info and secret query values of every URL in it masked: stream credentials never reach a log. */
export const withoutCredentials = maskUrlSecrets;
