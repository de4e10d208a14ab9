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

/** The short version of `ffmpeg -version`, or why it could not run. */
export function probeFfmpeg(file: string): Promise<{ ok: true; version: string } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    execFile(file, ['-hide_banner', '-version'], { encoding: 'utf8', timeout: 10_000 }, (error, stdout) => {
      if (error) resolve({ ok: false, error: error.message.split('\n')[0] });
      else resolve({ ok: true, version: shortFfmpegVersion(stdout.split('\n')[0] ?? '') });
    });
  });
}
