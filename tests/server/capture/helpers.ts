import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../support/postgres';
import { waitFor } from '../../support/wait';

export { waitFor };
// The live HLS source is shared with the benchmarks, which may not import from tests/.
export { startHlsSource, type HlsSource } from '../../../bench/hls-source';
import { stopProcess } from '../../../bench/hls-source';

export const FFPROBE = process.env.FFPROBE_PATH ?? 'ffprobe';

export interface Probe {
  width: number | null;
  height: number | null;
  duration: number;
}

export function ffprobe(file: string): Probe {
  const result = spawnSync(FFPROBE, ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type,width,height', '-of', 'json', file], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`ffprobe failed on ${file}: ${result.stderr}`);
  const json = JSON.parse(result.stdout) as { format: { duration?: string }; streams: { codec_type: string; width?: number; height?: number }[] };
  const video = json.streams.find((s) => s.codec_type === 'video');
  return { width: video?.width ?? null, height: video?.height ?? null, duration: Number(json.format.duration ?? 0) };
}

/** Whether ffmpeg decodes the whole file without an error. */
export function decodesCleanly(file: string): boolean {
  const result = spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-'], { encoding: 'utf8' });
  return result.status === 0 && result.stderr.trim() === '';
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
    ffmpeg = (JSON.parse(fs.readFileSync(path.join(dir, 'state.json'), 'utf8')) as { ffmpegPid?: number }).ffmpegPid ?? undefined;
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
  if (fs.existsSync(versions)) for (const v of fs.readdirSync(versions)) candidates.push(path.join(versions, v, 'bin', 'moto_server'));
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

/** Starts moto_server on 127.0.0.1 with a free port; fails loudly when moto is not installed. */
export async function startMoto(): Promise<MotoServer> {
  const binary = findMotoServer();
  if (!binary) {
    throw new Error('moto_server was not found (PATH, ~/.pyenv/shims, ~/.pyenv/versions/*/bin): install it with `pip install "moto[server]"` to run the aws driver tests');
  }
  const port = await freePort();
  const child = spawn(binary, ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        http.get(`${url}/moto-api/`, (res) => {
          res.resume();
          resolve(res.statusCode === 200);
        }).on('error', () => resolve(false));
      }),
    'moto_server to answer',
    30_000,
  );
  return { url, stop: () => stopProcess(child) };
}
