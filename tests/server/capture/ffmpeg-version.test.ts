import { describe, expect, it } from 'vitest';
import { probeFfmpeg, resolveFfmpeg, shortFfmpegVersion } from '../../../server/capture/ffmpeg-path';

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
});
