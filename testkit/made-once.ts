import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** Run by flock(1) with the lock held: the target's check, its making and its rename, so no two processes make it. */
const MAKE_UNLESS_MADE = 'target=$1 partial=$2; shift 2; [ -e "$target" ] || { "$@" && mv "$partial" "$target"; }';

/**
 * A fixture the test processes share (a programme ffmpeg encodes), made once per machine at `target`, a
 * file or folder under os.tmpdir() whose name says what it holds: `command` writes it at the partial path
 * it is given. The check, the command and the rename to `target` run under an exclusive lock
 * (`<target>.lock`), so processes that want it at the same moment make it once: the others wait, then find
 * it made (each making a copy of its own and renaming it, the files that start together on a fresh machine
 * each encoded the same programme). A process killed while making it releases the lock as it dies and
 * leaves only its own partial copy.
 */
export function madeOnce(
  target: string,
  what: string,
  command: (partial: string) => string[],
  options: { folder?: boolean } = {},
): string {
  if (fs.existsSync(target)) return target;
  const partial = `${target}.${process.pid}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  if (options.folder) fs.mkdirSync(partial);
  const result = spawnSync(
    'flock',
    [`${target}.lock`, 'sh', '-c', MAKE_UNLESS_MADE, 'sh', target, partial, ...command(partial)],
    { encoding: 'utf8' },
  );
  // Left when another process made the target first.
  fs.rmSync(partial, { recursive: true, force: true });
  if (result.status !== 0 || !fs.existsSync(target))
    throw new Error(`could not make ${what}: ${result.stderr || result.error?.message || `exit ${result.status}`}`);
  return target;
}
