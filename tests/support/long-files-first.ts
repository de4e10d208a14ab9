import fs from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/*
 * The order the suites start their files in. Some files take minutes while using a fraction of a core:
 * they wait on live streams, recorders, moto, failovers and browsers in real time. Started first, side
 * by side, they overlap the CPU-bound files instead of following them (the server project, two files at a
 * time in vitest's order, ended its last real-time file 9 minutes in). A file's
 * expected length is the longest time limit it declares (`scaled(N)`, which those files set from their
 * windows), read from its source at each run, so the order is the same on a clean clone as on a
 * machine with vitest's cache of durations.
 */

/** A file declaring a limit at least this long is started first. */
const LONG_FILE_LIMIT_MS = 60_000;
const DECLARED_LIMIT = /\bscaled\(\s*([\d_]+)\s*\)/g;

/** The longest time limit a test file declares through `scaled`, in ms (0 when none). */
export function declaredLimitMs(source: string): number {
  let longest = 0;
  for (const [, digits] of source.matchAll(DECLARED_LIMIT))
    longest = Math.max(longest, Number(digits.replaceAll('_', '')));
  return longest;
}

/** `sorted` (vitest's order) with the long files first, longest first; the rest keep vitest's order. */
export function longFilesFirst<T>(sorted: readonly T[], limitMs: (file: T) => number): T[] {
  const isLong = (file: T) => limitMs(file) >= LONG_FILE_LIMIT_MS;
  return [...sorted.filter(isLong).sort((a, b) => limitMs(b) - limitMs(a)), ...sorted.filter((file) => !isLong(file))];
}

export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const limits = new Map(
      files.map((spec) => [spec.moduleId, declaredLimitMs(fs.readFileSync(spec.moduleId, 'utf8'))]),
    );
    return longFilesFirst(await super.sort(files), (spec) => limits.get(spec.moduleId) ?? 0);
  }
}
