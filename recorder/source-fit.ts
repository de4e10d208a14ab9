/*
 * Whether a stream already is what its recording would be made of, so that copying it loses nothing
 * and costs a two-hundredth of a transcode: an HLS segment's bytes, or a stream ffmpeg reads itself
 * (RTMP, Icecast, DASH, SRT) probed at its URL. Part of the recorder runtime: Node and its siblings only.
 */
import { execFile } from 'node:child_process';
import type { RecorderConfig } from './recorder-state';

/** Audio kept as it is: what MPEG-TS pieces and the joined MP4 both carry. */
const KEPT_AUDIO = new Set(['aac', 'mp3']);

export interface ProbedStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  /** "1:1" for square pixels; "0:1" or absent: unknown, taken as square. */
  sample_aspect_ratio?: string;
}

/** What ffprobe reads: an HLS segment's bytes, or a URL with the input options ffmpeg would use for it. */
export type ProbeInput = { bytes: Uint8Array } | { url: string; inputOptions: string[]; env?: NodeJS.ProcessEnv };

type FitConfig = Pick<RecorderConfig, 'ffprobePath' | 'width' | 'height'>;

/**
 * The source fits when it is H.264 video at exactly the configured frame size with square pixels (an
 * anamorphic source of that size shows wider or narrower than the recording says) and AAC or MP3
 * audio, or when it is audio alone in one of those: a radio stream is kept as it is.
 */
export function fitsRecording(streams: ProbedStream[], config: Pick<RecorderConfig, 'width' | 'height'>): boolean {
  const video = streams.filter((s) => s.codec_type === 'video');
  const audio = streams.filter((s) => s.codec_type === 'audio');
  if (!audio.every((s) => KEPT_AUDIO.has(s.codec_name ?? ''))) return false;
  if (video.length === 0) return audio.length > 0;
  return (
    video.length === 1 &&
    video[0].codec_name === 'h264' &&
    video[0].width === config.width &&
    video[0].height === config.height &&
    squarePixels(video[0].sample_aspect_ratio)
  );
}

export function squarePixels(sampleAspectRatio: string | undefined): boolean {
  return !sampleAspectRatio || sampleAspectRatio === '1:1' || sampleAspectRatio === '0:1';
}

/** The streams ffprobe finds in the input; null when it cannot read it (not on the air, not media). */
export function probeStreams(config: FitConfig, input: ProbeInput): Promise<ProbedStream[] | null> {
  const source =
    'bytes' in input
      ? ['-f', 'mpegts', 'pipe:0']
      : // A live source is probed for two seconds at most: every second spent here is a second not recorded.
        [...input.inputOptions, '-analyzeduration', '2000000', '-probesize', '2000000', '-i', input.url];
  return new Promise((resolve) => {
    const probe = execFile(
      config.ffprobePath || 'ffprobe',
      [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_type,codec_name,width,height,sample_aspect_ratio',
        '-of',
        'json',
        ...source,
      ],
      { encoding: 'utf8', timeout: 15_000, env: 'env' in input ? input.env : undefined },
      (error, stdout) => {
        if (error) return resolve(null);
        try {
          resolve((JSON.parse(stdout) as { streams?: ProbedStream[] }).streams ?? []);
        } catch {
          resolve(null);
        }
      },
    );
    probe.stdin?.on('error', () => undefined);
    probe.stdin?.end('bytes' in input ? input.bytes : undefined);
  });
}

/** Whether an HLS segment already is what the recording would be made of; any doubt means transcoding. */
export async function sourceFits(config: FitConfig, segment: Uint8Array): Promise<boolean> {
  const streams = await probeStreams(config, { bytes: segment });
  return streams !== null && fitsRecording(streams, config);
}
