import crypto from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { S3RecordingStore } from '../../storage/s3-store';

/**
 * Set only in the built server (scripts/build-server.ts): where the built recorder is, relative to the
 * built server's file. Absent when the server runs from its TypeScript sources.
 */
declare const __RECORDER_BUNDLE__: string | undefined;

/** The recorder runtime EC2 recorders download: one ES module for plain `node`, and its sha256 (hex). */
export interface RecorderCode {
  code: string;
  sha256: string;
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * The recorder this server ships. The built server reads the one `npm run build` wrote beside it
 * (build/recorder/recorder.mjs and its .sha256) and compiles nothing. From the sources (tests, `npm
 * run dev`) the recorder is bundled now, by the build's own function, so it is always the current
 * sources and never an older build; esbuild removes that branch, and esbuild with it, from the built
 * server (the define makes its condition false there).
 */
export async function shippedRecorderCode(): Promise<RecorderCode> {
  if (typeof __RECORDER_BUNDLE__ !== 'string') {
    const { bundleRecorder } = await import('../../../scripts/build-server');
    const code = await bundleRecorder();
    return { code, sha256: sha256(code) };
  }
  return readBuiltRecorder(fileURLToPath(new URL(__RECORDER_BUNDLE__, import.meta.url)));
}

/** A built recorder and the hash written beside it, refused when either is missing or they disagree (a build cut short). */
export function readBuiltRecorder(file: string): RecorderCode {
  let code: string;
  let listed: string;
  try {
    code = fs.readFileSync(file, 'utf8');
    listed = fs.readFileSync(`${file}.sha256`, 'utf8').split(/\s/)[0];
  } catch {
    throw new Error(`The built recorder ${file} or its .sha256 is missing: run npm run build`);
  }
  const actual = sha256(code);
  if (actual !== listed) throw new Error(`The built recorder ${file} does not match its .sha256: run npm run build`);
  return { code, sha256: actual };
}

/** Where a published recorder is and how to check it: a pre-signed link, and the hash the download must have. */
export interface RecorderRuntimeLink {
  url: string;
  sha256: string;
}

/**
 * Puts the shipped runtime into the store once (keyed by its hash, under runtime/) and hands out
 * pre-signed links to it, so an instance needs no credentials to fetch it.
 */
export class RecorderRuntimeLinks {
  private published: Promise<{ key: string; sha256: string }> | null = null;

  constructor(
    private readonly store: S3RecordingStore,
    private readonly recorder: () => Promise<RecorderCode> = shippedRecorderCode,
  ) {}

  /** Publishes now (at the server's start), so no launch waits for the upload; a failure is tried again by the next link(). */
  prepare(): void {
    this.publication().catch(() => undefined);
  }

  async link(seconds: number): Promise<RecorderRuntimeLink> {
    const { key, sha256: hash } = await this.publication();
    return { url: await this.store.signedUrl(key, seconds), sha256: hash };
  }

  private publication(): Promise<{ key: string; sha256: string }> {
    this.published ??= this.publish().catch((error: unknown) => {
      this.published = null;
      throw error;
    });
    return this.published;
  }

  private async publish(): Promise<{ key: string; sha256: string }> {
    const { code, sha256: hash } = await this.recorder();
    const key = `runtime/recorder-${hash.slice(0, 16)}.mjs`;
    if (!(await this.store.stat(key))) await this.store.putText(key, code, 'text/javascript');
    return { key, sha256: hash };
  }
}
