import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeFfmpeg, probeFfmpegOften, resolveFfmpeg, shortFfmpegVersion } from '../../../server/capture/ffmpeg-path';

describe('ffmpeg version for the Cloud Connectivity line', () => {
  it('keeps "ffmpeg major.minor" of the banner', () => {
    expect(shortFfmpegVersion('ffmpeg version 5.1.6-0+deb12u1 Copyright (c) 2000-2024 the FFmpeg developers')).toBe(
      'ffmpeg 5.1',
    );
    expect(shortFfmpegVersion('ffmpeg version n6.1.1 Copyright (c) 2000-2023 the FFmpeg developers')).toBe(
      'ffmpeg 6.1',
    );
    expect(shortFfmpegVersion('ffmpeg version N-112345-gabcdef Copyright (c) 2000-2024 the FFmpeg developers')).toBe(
      'ffmpeg version N-112345-gabcdef',
    );
  });

  it('reads the real binary short', async () => {
    const ffmpeg = resolveFfmpeg(process.env.FFMPEG_PATH);
    if (!ffmpeg) throw new Error('no ffmpeg on this machine');
    const probe = await probeFfmpeg(ffmpeg.path);
    expect(probe).toMatchObject({ ok: true });
    if (probe.ok) expect(probe.version).toMatch(/^ffmpeg (\d+\.\d+|version \S+)$/);
  });

  it('runs a binary once a minute for every check in the process, and again at once when it is replaced', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ffmpeg-probe-'));
    const runs = path.join(dir, 'runs');
    const binary = path.join(dir, 'ffmpeg');
    const install = (version: string) =>
      fs.writeFileSync(binary, `#!/bin/sh\necho run >> '${runs}'\necho 'ffmpeg version ${version} Copyright'\n`, {
        mode: 0o755,
      });
    const count = () => fs.readFileSync(runs, 'utf8').split('\n').filter(Boolean).length;
    try {
      install('5.1.6');
      const t0 = Date.now();
      const answers = await Promise.all([probeFfmpegOften(binary, t0), probeFfmpegOften(binary, t0)]);
      expect(await probeFfmpegOften(binary, t0 + 59_000)).toEqual({ ok: true, version: 'ffmpeg 5.1' });
      expect(answers).toEqual([answers[0], answers[0]]);
      expect(count()).toBe(1);
      await probeFfmpegOften(binary, t0 + 61_000);
      expect(count()).toBe(2);
      // An upgrade in place: a new file at the same path.
      fs.rmSync(binary);
      install('6.1.1');
      expect(await probeFfmpegOften(binary, t0 + 62_000)).toEqual({ ok: true, version: 'ffmpeg 6.1' });
      expect(count()).toBe(3);
      fs.rmSync(binary);
      expect(await probeFfmpegOften(binary, t0 + 63_000)).toMatchObject({ ok: false });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
