import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { testProgrammeCommand } from './content-programmes';
import { madeOnce } from './made-once';
import { freePort } from './ports';
import { waitFor } from './wait';

export { waitFor };

export const FFPROBE = process.env.FFPROBE_PATH ?? 'ffprobe';

export interface HlsSource {
  url: string;
  dir: string;
  /** Kills the generator; the server keeps serving the last playlist (no end tag): a stalled live stream. */
  stopGenerator(): Promise<void>;
  /** Takes the broadcast off the air: the generator stops and every request answers 404 until goLive(). */
  goOffline(): Promise<void>;
  /** Starts a fresh broadcast (a new playlist, as an encoder restarting) and waits for its first segments. */
  goLive(): Promise<void>;
  close(): Promise<void>;
}

function stopProcess(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill(signal);
  });
}

/**
 * The broadcast's picture and tone, encoded once per machine, at 44.1 kHz: recordings of a
 * 48 kHz source join into files whose video timestamps repeat at piece boundaries (an open question
 * for the recorder's join, kept out of the tests that are about the window).
 */
const PROGRAMME_SECONDS = 64;
const PROGRAMME = path.join(os.tmpdir(), `capture-test-programme-v2-${PROGRAMME_SECONDS}s.ts`);

/** Encodes the programme the first time a test asks for it (about 2 s of one core; testkit/made-once.ts). */
function programme(): string {
  return madeOnce(PROGRAMME, 'the test programme', (partial) => testProgrammeCommand(PROGRAMME_SECONDS, partial));
}

/**
 * The live encoder: ffmpeg plays the programme in a loop at its own pace (-re) and packages it as
 * live HLS. It copies, never encodes, so it keeps real time on a machine whose cores are busy with
 * the recorders under test (an encoding source fell behind there, and the recordings with it).
 */
function startGenerator(dir: string, programmeFile: string, listSize: number): ChildProcess {
  return spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-re',
      '-stream_loop',
      '-1',
      '-i',
      programmeFile,
      '-c',
      'copy',
      // 20 segments listed by default, as a live stream's playlist commonly holds: a recorder that starts late on a
      // busy machine still finds its window's first seconds there (the fidelity lab tests shorter lists).
      '-f',
      'hls',
      '-hls_time',
      '1',
      '-hls_list_size',
      String(listSize),
      '-hls_flags',
      'delete_segments',
      path.join(dir, 'live.m3u8'),
    ],
    { stdio: 'ignore' },
  );
}

const hasSegments = (dir: string, name: string) => {
  try {
    return fs.readFileSync(path.join(dir, 'live.m3u8'), 'utf8').includes(name);
  } catch {
    return false;
  }
};

/**
 * A live HLS broadcast made here: ffmpeg writes a test pattern with a tone as 1-second segments
 * (a sliding window of 20, or `listSize`; no end tag) and a tiny HTTP server on 127.0.0.1 serves them.
 * With `live: false` it starts off the air (every request 404) until goLive(); `programme` loops another
 * MPEG-TS file instead (testkit/content-programmes.ts).
 */
export async function startHlsSource(
  options: { live?: boolean; listSize?: number; programme?: string } = {},
): Promise<HlsSource> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-hls-'));
  let generator: ChildProcess | undefined;
  let onAir = false;
  const server = http.createServer((request, response) => {
    const name = path.basename(decodeURIComponent((request.url ?? '/').split('?')[0]));
    if (!onAir) {
      response.writeHead(404).end('not found');
      return;
    }
    fs.readFile(path.join(dir, name), (error, body) => {
      if (error) {
        response.writeHead(404).end('not found');
        return;
      }
      response
        .writeHead(200, { 'content-type': name.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t' })
        .end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const goLive = async () => {
    await stopProcess(generator, 'SIGKILL');
    for (const name of fs.readdirSync(dir)) fs.rmSync(path.join(dir, name), { force: true });
    generator = startGenerator(dir, options.programme ?? programme(), options.listSize ?? 20);
    // A few segments first, so a reader starts on a real live window.
    await waitFor(() => hasSegments(dir, 'live2.ts'), 'the HLS source', 20_000);
    onAir = true;
  };
  const goOffline = async () => {
    onAir = false;
    await stopProcess(generator, 'SIGKILL');
  };
  if (options.live ?? true) await goLive();
  return {
    url: `http://127.0.0.1:${port}/live.m3u8`,
    dir,
    // SIGKILL: a generator stopped gracefully would end the playlist (#EXT-X-ENDLIST), which is not a stall.
    stopGenerator: () => stopProcess(generator, 'SIGKILL'),
    goOffline,
    goLive,
    close: async () => {
      onAir = false;
      await stopProcess(generator);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Probe {
  width: number | null;
  height: number | null;
  duration: number;
}

// Both run asynchronously (Node's execFile): a probe or a whole decode took seconds on a busy machine, and
// run synchronously in a test file whose worker also serves a live HLS source, it left the source's requests
// unanswered for that long (a recorder beside it then reported a stall that was the test's own).
const execFileAsync = promisify(execFile);

export async function ffprobe(file: string): Promise<Probe> {
  const args = ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type,width,height', '-of', 'json', file];
  const { stdout } = await execFileAsync(FFPROBE, args).catch((error: { stderr?: string }) => {
    throw new Error(`ffprobe failed on ${file}: ${error.stderr ?? String(error)}`);
  });
  const json = JSON.parse(stdout) as {
    format: { duration?: string };
    streams: { codec_type: string; width?: number; height?: number }[];
  };
  const video = json.streams.find((s) => s.codec_type === 'video');
  return { width: video?.width ?? null, height: video?.height ?? null, duration: Number(json.format.duration ?? 0) };
}

/** Whether ffmpeg decodes the whole file without an error (an exit status other than 0 rejects). */
export async function decodesCleanly(file: string): Promise<boolean> {
  const decoded = await execFileAsync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']).catch(() => undefined);
  return decoded !== undefined && decoded.stderr.trim() === '';
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return false;
  }
}

/** Pids of one instance's recorder and ffmpeg, from its folder. */
export function instancePids(dataDir: string, instanceId: string): { recorder?: number; ffmpeg?: number } {
  const dir = path.join(dataDir, 'instances', instanceId);
  let ffmpeg: number | undefined;
  try {
    ffmpeg =
      (JSON.parse(fs.readFileSync(path.join(dir, 'state.json'), 'utf8')) as { ffmpegPid?: number }).ffmpegPid ??
      undefined;
  } catch {
    ffmpeg = undefined;
  }
  return { recorder: readPid(path.join(dir, 'recorder.pid')), ffmpeg };
}

/** Kills every recorder (with its process group) and ffmpeg the tests started in this data folder. */
export function killRecorders(dataDir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(dataDir, 'instances'));
  } catch {
    return;
  }
  for (const name of names) {
    const { recorder, ffmpeg } = instancePids(dataDir, name);
    for (const target of [recorder ? -recorder : undefined, recorder, ffmpeg]) {
      if (!target) continue;
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
}

/** moto's EC2 server: on PATH, in pyenv's shims, or in one of pyenv's versions. */
export function findMotoServer(): string | undefined {
  const candidates = [
    ...(process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'moto_server')),
    path.join(os.homedir(), '.pyenv', 'shims', 'moto_server'),
    '/root/.pyenv/shims/moto_server',
  ];
  const versions = path.join(os.homedir(), '.pyenv', 'versions');
  if (fs.existsSync(versions))
    for (const v of fs.readdirSync(versions)) candidates.push(path.join(versions, v, 'bin', 'moto_server'));
  return candidates.find((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export interface MotoServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * The public images moto lists as Amazon's: the first of its own default list (the x86_64 image every test
 * launches from, as "the first x86_64 image moto lists as Amazon's"), without the 1,100 regional and
 * ECS-optimised images it adds otherwise. Loading and filtering those cost each moto about 1 s of CPU on
 * its first EC2 call and 0.6 s on every DescribeImages by owner; no test asks for one of them.
 */
const MOTO_AMIS = path.join(import.meta.dirname, 'moto-amis.json');

/**
 * Whether a moto that a file has stopped stays up, emptied, for the next file of the same worker process
 * (shareMotoPerWorker). A fresh moto cost about 1.5 s of CPU before its first answer to EC2 (0.4 s to
 * start, 1 s to load EC2's models on the first call); emptied by moto's reset it answers the same
 * requests the same way from 0.02 s.
 */
let sharedPerWorker = false;
const SETPRIV = '/usr/bin/setpriv';
const idleMotos: { url: string; child: ChildProcess }[] = [];

/**
 * Keeps one moto per worker process for the files it runs one after another (the server suites share a
 * worker's modules between files: vite.config.ts). Each file still starts on an empty moto: stop() resets
 * every service of it (moto-api/reset) before the next file may take it. A moto dies with its worker
 * (setpriv --pdeathsig: vitest ends a worker with SIGTERM, which runs no exit handler).
 */
export function shareMotoPerWorker(): void {
  sharedPerWorker = fs.existsSync(SETPRIV);
}

/** Starts moto_server on 127.0.0.1 with a free port (or takes this worker's idle one); fails loudly when moto is not installed. */
export async function startMoto(): Promise<MotoServer> {
  const idle = sharedPerWorker ? idleMotos.pop() : undefined;
  const moto = idle?.child.exitCode === null ? idle : await launchMoto();
  if (!sharedPerWorker) return { url: moto.url, stop: () => stopProcess(moto.child) };
  return {
    url: moto.url,
    stop: async () => {
      const reset = await fetch(`${moto.url}/moto-api/reset`, { method: 'POST' }).catch(() => undefined);
      if (reset?.ok) idleMotos.push(moto);
      else await stopProcess(moto.child);
    },
  };
}

async function launchMoto(): Promise<{ url: string; child: ChildProcess }> {
  const binary = findMotoServer();
  if (!binary) {
    throw new Error(
      'moto_server was not found (PATH, ~/.pyenv/shims, ~/.pyenv/versions/*/bin): install it with `pip install "moto[server]"` to run the aws driver tests',
    );
  }
  const port = await freePort();
  const command = [binary, '-H', '127.0.0.1', '-p', String(port)];
  const child = spawn(
    sharedPerWorker ? SETPRIV : command[0],
    sharedPerWorker ? ['--pdeathsig', 'TERM', ...command] : command.slice(1),
    {
      stdio: 'ignore',
      env: { ...process.env, MOTO_AMIS_PATH: process.env.MOTO_AMIS_PATH ?? MOTO_AMIS },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        http
          .get(`${url}/moto-api/`, (res) => {
            res.resume();
            resolve(res.statusCode === 200);
          })
          .on('error', () => resolve(false));
      }),
    'moto_server to answer',
    30_000,
  );
  return { url, child };
}
