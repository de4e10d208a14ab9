import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface ResolvedFfmpeg {
  path: string;
  source: 'FFMPEG_PATH' | 'PATH' | '@ffmpeg-installer/ffmpeg';
}

export function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

/** FFMPEG_PATH, else `ffmpeg` on PATH, else the binary of the @ffmpeg-installer/ffmpeg package (docs/architecture.md). */
export function resolveFfmpeg(configured: string | undefined): ResolvedFfmpeg | undefined {
  if (configured) return { path: configured, source: 'FFMPEG_PATH' };
  const found = onPath('ffmpeg');
  if (found) return { path: found, source: 'PATH' };
  try {
    const installer = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path?: string };
    if (installer.path && executable(installer.path))
      return { path: installer.path, source: '@ffmpeg-installer/ffmpeg' };
  } catch {
    // package missing or platform unsupported
  }
  return undefined;
}

/** FFPROBE_PATH, else the ffprobe beside ffmpeg (they ship together), else `ffprobe` on PATH. */
export function resolveFfprobe(ffmpegPath: string, configured?: string): string | undefined {
  if (configured) return configured;
  const beside = path.join(path.dirname(ffmpegPath), path.basename(ffmpegPath).replace(/ffmpeg/, 'ffprobe'));
  if (beside !== ffmpegPath && executable(beside)) return beside;
  return onPath('ffprobe');
}

/**
 * "ffmpeg 5.1" from the banner's first line ("ffmpeg version 5.1.6-0+deb12u1 Copyright (c) 2000-2024 the FFmpeg
 * developers"), which is too long to show; the line itself when it has no readable version (e.g. a git build).
 */
export function shortFfmpegVersion(firstLine: string): string {
  const match = /^ffmpeg version n?(\d+\.\d+)/.exec(firstLine.trim());
  if (match) return `ffmpeg ${match[1]}`;
  return firstLine.trim().replace(/\s+Copyright.*$/, '') || 'ffmpeg';
}

export type FfmpegProbe = { ok: true; version: string } | { ok: false; error: string };

/** The short version of `ffmpeg -version`, or why it could not run. */
export function probeFfmpeg(file: string): Promise<FfmpegProbe> {
  return new Promise((resolve) => {
    execFile(file, ['-hide_banner', '-version'], { encoding: 'utf8', timeout: 10_000 }, (error, stdout) => {
      if (error) resolve({ ok: false, error: error.message.split('\n')[0] });
      else resolve({ ok: true, version: shortFfmpegVersion(stdout.split('\n')[0] ?? '') });
    });
  });
}

/** How long a probe's answer stands for the same binary: a broken library shows within a minute. */
const PROBE_FOR_MS = 60_000;
const probes = new Map<string, { at: number; binary: string; answer: Promise<FfmpegProbe> }>();

/** Which file `file` is now: a binary replaced or removed (an upgrade) is probed again at once. */
function binaryOf(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

/**
 * probeFfmpeg, run at most once a minute per binary for the whole process: every health check of every
 * local driver asks it (a test process builds many servers), and each run of ffmpeg costs a few tens of
 * ms of CPU. Checks at the same moment share one run.
 */
export function probeFfmpegOften(file: string, nowMs = Date.now()): Promise<FfmpegProbe> {
  const binary = binaryOf(file);
  const known = probes.get(file);
  if (known && known.binary === binary && nowMs - known.at <= PROBE_FOR_MS) return known.answer;
  const answer = probeFfmpeg(file);
  probes.set(file, { at: nowMs, binary, answer });
  return answer;
}
