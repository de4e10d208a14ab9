import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RUNTIME_ENTRY, RUNTIME_FILES } from '../../../recorder/protocol';

/**
 * Set only in the built server (scripts/build-server.ts): where the built recorder is, relative to the
 * built server's file. Absent when the server runs from its TypeScript sources.
 */
declare const __RECORDER_BUNDLE__: string | undefined;

/** The built recorder: one JavaScript file of Node built-ins, run by `node` alone. */
export const BUILT_RECORDER = 'recorder.mjs';

/** A recorder runtime in a folder: the files an instance copies, and how `node` starts them. */
export interface RecorderRuntime {
  dir: string;
  files: readonly string[];
  entry: string;
  /** Node options before the entry: the heap limit, and tsx's loader for the TypeScript sources. */
  nodeArgs: string[];
}

/**
 * A recorder's JavaScript heap limit. Its media never lives on that heap (answers are Buffers capped in
 * recorder/hls-http.ts); the limit stops a leak or a hostile playlist's strings from growing a recorder
 * until the machine swaps and every other recorder on it loses its stream.
 */
export const RECORDER_HEAP_LIMIT = '--max-old-space-size=256';

/** The folder of the recorder's TypeScript sources (recorder/ at the project's root). */
const SOURCE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../recorder');

/**
 * The runtime a folder holds (the shipped one, an image's or an instance's copy): the built recorder
 * when there is one, else the TypeScript sources; undefined when neither is complete (an image frozen
 * before the recorder was split into its current files).
 */
export function runtimeIn(dir: string): RecorderRuntime | undefined {
  if (fs.existsSync(path.join(dir, BUILT_RECORDER)))
    return { dir, files: [BUILT_RECORDER], entry: BUILT_RECORDER, nodeArgs: [RECORDER_HEAP_LIMIT] };
  if (RUNTIME_FILES.every((file) => fs.existsSync(path.join(dir, file)))) {
    return {
      dir,
      files: RUNTIME_FILES,
      entry: RUNTIME_ENTRY,
      nodeArgs: [RECORDER_HEAP_LIMIT, '--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href],
    };
  }
  return undefined;
}

/**
 * The recorder this server ships, chosen by how the server itself runs: the built server (`npm run
 * build`, then `npm start`/`npm run serve`) starts the built recorder built with it, never the
 * sources; the server run from its sources (`npm run dev`, the test suites) starts the recorder's
 * sources through tsx, so an edit to them is never hidden by an older build.
 */
export function shippedRecorderRuntime(bundle: string | undefined = builtRecorderPath()): RecorderRuntime {
  if (bundle === undefined) return runtimeIn(SOURCE_DIR) as RecorderRuntime;
  const runtime = runtimeIn(path.dirname(bundle));
  if (runtime?.entry !== BUILT_RECORDER) throw new Error(`The built recorder ${bundle} is missing: run npm run build`);
  return runtime;
}

function builtRecorderPath(): string | undefined {
  return typeof __RECORDER_BUNDLE__ === 'string'
    ? fileURLToPath(new URL(__RECORDER_BUNDLE__, import.meta.url))
    : undefined;
}

/**
 * Copies a runtime's files into `toDir`, readable by the server's user only (0700 folder, 0600 files):
 * a copy keeps its source's mode, and a built recorder is 0644 where it was built.
 */
export function copyRuntime(runtime: Pick<RecorderRuntime, 'dir' | 'files'>, toDir: string): void {
  fs.mkdirSync(toDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(toDir, 0o700);
  for (const file of runtime.files) {
    const target = path.join(toDir, file);
    fs.copyFileSync(path.join(runtime.dir, file), target);
    fs.chmodSync(target, 0o600);
  }
}
