/*
 * From a stream source to what ffmpeg reads. A direct media URL (an HLS/DASH playlist, a .ts/.mp4/.flv
 * file, an rtmp/rtsp/srt address) is used as it is, and so is an http(s) URL without such a name that
 * answers with an audio or video type (an Icecast or Shoutcast mount, `/radio`, `/live`, `/;`);
 * anything else is a page (a YouTube live page, a site yt-dlp knows, a page with a <video> element)
 * resolved with `yt-dlp -g` at each (re)connect, because the media URLs such sites hand out expire.
 * Part of the recorder runtime: Node and its siblings only.
 */
import { execFile } from 'node:child_process';
import { createEgressPin, GUARDED, type EgressPin } from './egress-guard';

const DIRECT_SCHEMES = new Set(['rtmp:', 'rtmps:', 'rtsp:', 'rtsps:', 'srt:', 'udp:', 'rtp:']);
const DIRECT_PATH = /\.(m3u8|mpd|ts|mp4|m4s|flv|aac|mp3|mkv|webm)$/i;

export interface ResolveOptions {
  /** yt-dlp binary; default `yt-dlp` on PATH. */
  ytDlpPath?: string | null;
  timeoutMs?: number;
  /** The recorder's egress proxy: yt-dlp's every request goes through the egress guard. */
  proxy?: string | null;
  /** The egress guard that checks the look at what a URL answers (default: public addresses only). */
  pin?: EgressPin;
}

/** How long the look at what a URL answers may take: a media server answers its headers at once. */
const CONTENT_TYPE_TIMEOUT_MS = 5000;
/** Types a media server answers with; a page is text/html. */
const MEDIA_TYPE = /^(audio|video)\/|^application\/(ogg|octet-stream|vnd\.apple\.mpegurl|x-mpegurl|dash\+xml)$/;

/** Whether an http(s) URL answers with media itself (by its content type), so no page needs resolving. */
async function answersWithMedia(url: string, pin: EgressPin): Promise<boolean> {
  if (!/^https?:/i.test(url)) return false;
  // Loaded when needed: the server imports this file (the scheduler resolves stream pages), and the HTTP
  // client's node:http import would load Node's fetch implementation (undici) into every server start.
  const { getBytes, PLAYLIST_MAX_BYTES } = await import('./hls-http');
  const answer = await getBytes(url, CONTENT_TYPE_TIMEOUT_MS, pin, PLAYLIST_MAX_BYTES, true);
  return !('error' in answer) && answer.contentType !== null && MEDIA_TYPE.test(answer.contentType);
}

export type ResolvedStream =
  | {
      ok: true;
      url: string;
      via: 'direct' | 'yt-dlp';
      /** It answered with media when asked (a URL known by its form is not asked): it was on the air then. */
      answeredMedia?: true;
    }
  | { ok: false; error: string };

/** Whether ffmpeg can read the URL as it is, without resolving a page first. */
export function isDirectMediaUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return DIRECT_SCHEMES.has(parsed.protocol) || DIRECT_PATH.test(parsed.pathname);
  } catch {
    return false;
  }
}

/** An HLS playlist: by its path, or as the media URLs of stream sites name their HLS manifests. */
export function isHlsUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (
      (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
      /\.m3u8$|\/hls_(?:playlist|variant)\//i.test(parsed.pathname)
    );
  } catch {
    return false;
  }
}

export async function resolveStreamUrl(url: string, options: ResolveOptions = {}): Promise<ResolvedStream> {
  if (isDirectMediaUrl(url)) return { ok: true, url, via: 'direct' };
  if (await answersWithMedia(url, options.pin ?? createEgressPin(GUARDED)))
    return { ok: true, url, via: 'direct', answeredMedia: true };
  const binary = options.ytDlpPath || 'yt-dlp';
  return new Promise((resolve) => {
    execFile(
      binary,
      // Best single file with video and audio (live streams offer one HLS variant per quality).
      [
        '-g',
        '--no-playlist',
        '--no-warnings',
        ...(options.proxy ? ['--proxy', options.proxy] : []),
        '-f',
        'best[acodec!=none][vcodec!=none]/best',
        '--',
        url,
      ],
      { encoding: 'utf8', timeout: options.timeoutMs ?? 60_000, maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        const media = stdout
          .split('\n')
          .map((line) => line.trim())
          .find((line) => /^[a-z][a-z0-9+.-]*:\/\//i.test(line));
        if (!error && media) return resolve({ ok: true, url: media, via: 'yt-dlp' });
        if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
          return resolve({
            ok: false,
            error: `yt-dlp was not found (${binary}): it is needed to resolve the stream page ${url}`,
          });
        }
        const why =
          stderr
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean)
            .at(-1) ??
          error?.message.split('\n')[0] ??
          'no media URL printed';
        resolve({ ok: false, error: `yt-dlp could not resolve ${url}: ${why.replace(/^ERROR:\s*/, '')}` });
      },
    );
  });
}
