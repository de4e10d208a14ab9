import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTANCE_FILES, readPidFile } from '../../../recorder/recorder-state';
import { startFidelityOrigin } from '../../../testkit/fidelity-origin';
import { FRAME_CODE } from '../../../testkit/numbered-stream';
import { recorderProcess } from '../../../testkit/recorder-process';
import { scaled } from '../../../testkit/time-scale';
import { waitFor } from '../../../testkit/wait';

// PostgreSQL pass: skipped: recorder processes and folder claims, no database

/*
 * One recorder per instance folder, whatever starts how many at once: real processes race for the
 * folder's claim (recorder/recorder-state.ts claimFolder), and real recorders started on one folder.
 */

const STATE_MODULE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../recorder/recorder-state.ts');
const RECORDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../recorder/recorder.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/**
 * A process that claims the folder and says how it went; one that holds it stays until killed. It imports
 * recorder-state.ts bundled to plain JavaScript once (below): Node's own type stripping does not resolve
 * the extensionless imports of the recorder's sources, and tsx in each of 100 processes would cost more
 * than the race it tests.
 */
const claimant = (stateModule: string) => `
const { claimFolder } = await import(${JSON.stringify(pathToFileURL(stateModule).href)});
const holder = claimFolder(process.argv[1]);
process.stdout.write(holder === null ? 'won\\n' : 'refused ' + holder + '\\n');
if (holder === null) setInterval(() => undefined, 60_000);
`;
let claimantScript = '';
beforeAll(async () => {
  const outfile = path.join(folder(), 'recorder-state.mjs');
  await build({
    entryPoints: [STATE_MODULE],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'silent',
  });
  claimantScript = claimant(outfile);
});

const children: ChildProcess[] = [];
const folders: string[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

interface Claim {
  child: ChildProcess;
  answer: Promise<string>;
}

/** Starts `count` claimants on `dir` at once (the folder's path is in each command line, as a recorder's). */
function claimants(dir: string, count: number): Claim[] {
  return Array.from({ length: count }, () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', claimantScript, dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const answer = new Promise<string>((resolve) => {
      child.stdout?.on('data', () => out.endsWith('\n') && resolve(out.trim()));
      // 'close', not 'exit': the output may still be on its way when the process has exited.
      child.once('close', () => resolve(out.trim()));
    });
    return { child, answer };
  });
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

function folder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'one-recorder-'));
  folders.push(dir);
  return dir;
}

describe('one recorder per folder', () => {
  it(
    'of 100 started at once one holds the folder, the others name it; when it dies, one of the next 20 takes over',
    { timeout: scaled(120_000) },
    async () => {
      const dir = folder();
      const first = claimants(dir, 100);
      const answers = await Promise.all(first.map((c) => c.answer));
      const winners = first.filter((_, i) => answers[i] === 'won');
      expect(winners).toHaveLength(1);
      const holder = winners[0].child.pid as number;
      expect(answers.filter((a) => a !== 'won')).toEqual(Array.from({ length: 99 }, () => `refused ${holder}`));

      await killed(winners[0].child);
      const second = claimants(dir, 20);
      const next = await Promise.all(second.map((c) => c.answer));
      expect(next.filter((a) => a === 'won')).toHaveLength(1);
      const successor = second[next.indexOf('won')].child.pid as number;
      expect(next.filter((a) => a !== 'won')).toEqual(Array.from({ length: 19 }, () => `refused ${successor}`));
      // Only the holder's claim is left in the folder.
      expect(fs.readdirSync(dir).filter((name) => name.startsWith('recorder.lock'))).toHaveLength(1);
    },
  );

  it(
    'a second recorder started on a recording folder refuses to start, and the pid file names the one recording',
    { timeout: scaled(120_000) },
    async () => {
      const origin = await startFidelityOrigin({ minutes: 2, prePublishSegments: 6 });
      const recorder = recorderProcess({
        url: origin.url,
        seconds: 15,
        width: FRAME_CODE.width,
        height: FRAME_CODE.height,
        sourceAsIs: true,
      });
      folders.push(recorder.dir);
      try {
        recorder.start();
        const pidFile = path.join(recorder.dir, INSTANCE_FILES.pid);
        await waitFor(() => recorder.state()?.phase === 'running', 'the first recorder to record', scaled(60_000), 100);
        const first = readPidFile(pidFile);
        // As a server that started one more would: it notes the pid of the one it started.
        const second = spawn(process.execPath, ['--import', TSX, RECORDER, recorder.dir], { stdio: 'ignore' });
        children.push(second);
        fs.writeFileSync(pidFile, `${second.pid}\n`);
        const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
        expect(code).toBe(3);
        expect(recorder.log()).toContain(
          `recorder ${first} is recording this folder; this one (${second.pid}) does not start`,
        );
        expect(readPidFile(pidFile)).toBe(first);
        const state = await recorder.finished(scaled(60_000));
        expect(state.outcome?.status).toBe('captured');
      } finally {
        await recorder.kill();
        await origin.close();
      }
    },
  );
});
