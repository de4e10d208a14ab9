import { spawnSync } from 'node:child_process';
import module from 'node:module';
import type { TestContext } from 'vitest';

/*
 * What a few tests need from the machine beyond `npm ci`: yt-dlp on the PATH, and the Node the project
 * runs on (22; `. scripts/node22.sh` puts it first on the PATH where the system's Node is older). A test
 * that needs one the machine lacks is skipped, saying what is missing and how to get it, so that a
 * newcomer's `npm test` ends green with the skips named. CI (CI=true) installs them all (.ci/run): there
 * a missing one fails the test instead, so that a green CI run means every test ran.
 */

const UPGRADE = 'run `. scripts/node22.sh` before npm ci and npm test';

/** Why a test that runs yt-dlp cannot run here; null when it can. */
export function ytDlpMissing(): string | null {
  return spawnSync('sh', ['-c', 'command -v yt-dlp']).status === 0
    ? null
    : 'yt-dlp is not on the PATH (apt-get install yt-dlp, or pip install yt-dlp)';
}

/**
 * Why a test that runs the EC2 user-data in a sandbox cannot run here; null when it can. The user-data
 * installs Node 22 on a machine whose Node is older (a download on every boot), and the sandbox gives it
 * the Node that runs the tests.
 */
export function recorderNodeMissing(): string | null {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= 22
    ? null
    : `the recorder's machine needs Node 22 or later, and this is Node ${process.versions.node} (${UPGRADE})`;
}

/** Why a test of the launcher's compile cache cannot run here (Node 22.1 and later have one); null when it can. */
export function compileCacheMissing(): string | null {
  return 'enableCompileCache' in module
    ? null
    : `Node's module compile cache needs Node 22.1 or later, and this is Node ${process.versions.node} (${UPGRADE})`;
}

/** The reasons given (null for a prerequisite that is there) as one, or null when nothing is missing. */
export function missing(...reasons: (string | null)[]): string | null {
  const found = reasons.filter((reason) => reason !== null);
  return found.length > 0 ? found.join('; ') : null;
}

/** Skips the running test for `reason`, printed with the test's name; fails it in CI; nothing when `reason` is null. */
export function skipIfMissing(skip: TestContext['skip'], reason: string | null): void {
  if (reason === null) return;
  if (process.env.CI === 'true') throw new Error(`${reason}: CI installs every prerequisite (.ci/run)`);
  console.warn(`Skipped: ${reason}`);
  skip(reason);
}
