/*
 * HLS playlists (RFC 8216) as the segment-level recorder reads them: a multivariant playlist's
 * variants, and a media playlist's segments numbered by their media sequence. Only what recording
 * needs is read; a playlist whose segments the recorder cannot copy as they are (encrypted, fMP4 with
 * an initialisation section, byte ranges) is marked unsupported and recorded through ffmpeg instead.
 * Part of the recorder runtime: Node and its siblings only (it is frozen into images as it is).
 */

export interface Variant {
  uri: string;
  bandwidth: number;
  height: number | null;
}

export interface MultivariantPlaylist {
  kind: 'multivariant';
  variants: Variant[];
}

export interface MediaSegment {
  /** Its media sequence number. */
  sequence: number;
  /** Absolute URL. */
  uri: string;
  /** Seconds (EXTINF). */
  duration: number;
  /** EXT-X-DISCONTINUITY before it: its timestamps do not follow the segment before. */
  discontinuity: boolean;
  /**
   * Where its first frame lies on the stream's own clock (epoch ms, EXT-X-PROGRAM-DATE-TIME), or null.
   * A segment without the tag after one with it, and no discontinuity between, follows on from it.
   */
  programTime: number | null;
}

export interface MediaPlaylist {
  kind: 'media';
  targetDuration: number;
  mediaSequence: number;
  discontinuitySequence: number;
  /** EXT-X-ENDLIST: the broadcast is over (or a recording, not a live stream). */
  ended: boolean;
  segments: MediaSegment[];
  /** Why the recorder cannot copy these segments itself, or null. */
  unsupported: string | null;
}

export type Playlist = MultivariantPlaylist | MediaPlaylist;

export class PlaylistError extends Error {}

/** Reads a playlist; `base` is the URL it came from (segment URIs are relative to it). */
export function parsePlaylist(text: string, base: string): Playlist {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.trim());
  if (lines[0] !== '#EXTM3U') throw new PlaylistError('not an HLS playlist (no #EXTM3U)');
  if (lines.some((line) => line.startsWith('#EXT-X-STREAM-INF:'))) return parseMultivariant(lines, base);
  return parseMedia(lines, base);
}

function parseMultivariant(lines: string[], base: string): MultivariantPlaylist {
  const variants: Variant[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('#EXT-X-STREAM-INF:')) continue;
    const attributes = attributeList(lines[i].slice('#EXT-X-STREAM-INF:'.length));
    const uri = lines.slice(i + 1).find((line) => line && !line.startsWith('#'));
    if (!uri) continue;
    const resolution = /^(\d+)x(\d+)$/.exec(attributes.RESOLUTION ?? '');
    variants.push({
      uri: new URL(uri, base).href,
      bandwidth: Number(attributes.BANDWIDTH) || 0,
      height: resolution ? Number(resolution[2]) : null,
    });
  }
  if (variants.length === 0) throw new PlaylistError('the multivariant playlist lists no variant');
  return { kind: 'multivariant', variants };
}

function parseMedia(lines: string[], base: string): MediaPlaylist {
  const playlist: MediaPlaylist = {
    kind: 'media',
    targetDuration: 0,
    mediaSequence: 0,
    discontinuitySequence: 0,
    ended: false,
    segments: [],
    unsupported: null,
  };
  let duration: number | null = null;
  let discontinuity = false;
  let programTime: number | null = null;
  for (const line of lines) {
    if (!line) continue;
    if (!line.startsWith('#')) {
      if (duration === null) throw new PlaylistError(`segment ${line.slice(0, 80)} has no #EXTINF`);
      const sequence = playlist.mediaSequence + playlist.segments.length;
      const before = playlist.segments.at(-1);
      programTime ??=
        before?.programTime != null && !discontinuity ? before.programTime + before.duration * 1000 : null;
      playlist.segments.push({ sequence, uri: new URL(line, base).href, duration, discontinuity, programTime });
      duration = null;
      discontinuity = false;
      programTime = null;
      continue;
    }
    const colon = line.indexOf(':');
    const tag = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1);
    switch (tag) {
      case '#EXTINF':
        duration = Number.parseFloat(value);
        if (!Number.isFinite(duration) || duration < 0) throw new PlaylistError(`bad #EXTINF ${value.slice(0, 40)}`);
        break;
      case '#EXT-X-TARGETDURATION':
        playlist.targetDuration = Number(value) || 0;
        break;
      case '#EXT-X-MEDIA-SEQUENCE':
        playlist.mediaSequence = Number(value) || 0;
        break;
      case '#EXT-X-DISCONTINUITY-SEQUENCE':
        playlist.discontinuitySequence = Number(value) || 0;
        break;
      case '#EXT-X-DISCONTINUITY':
        discontinuity = true;
        break;
      case '#EXT-X-PROGRAM-DATE-TIME': {
        const at = Date.parse(value);
        programTime = Number.isFinite(at) ? at : null;
        break;
      }
      case '#EXT-X-ENDLIST':
        playlist.ended = true;
        break;
      case '#EXT-X-KEY':
        if (attributeList(value).METHOD !== 'NONE') playlist.unsupported ??= 'its segments are encrypted';
        break;
      case '#EXT-X-MAP':
        playlist.unsupported ??= 'its segments are fragmented MP4';
        break;
      case '#EXT-X-BYTERANGE':
        playlist.unsupported ??= 'its segments are byte ranges';
        break;
    }
  }
  if (playlist.targetDuration <= 0)
    playlist.targetDuration = Math.max(1, ...playlist.segments.map((s) => Math.ceil(s.duration)));
  // RFC 8216 4.3.3.1: an EXTINF rounds to at most the target duration. A longer one is the origin's word
  // only: believed, it would count content never sent and stretch the time limit of the segment's fetch.
  const longest = playlist.targetDuration + 0.5;
  for (const segment of playlist.segments) segment.duration = Math.min(segment.duration, longest);
  return playlist;
}

/** `KEY=value,KEY="quoted, value"` (RFC 8216 section 4.2). */
function attributeList(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of text.matchAll(/([A-Z0-9-]+)=("[^"]*"|[^,]*)/g))
    attributes[match[1]] = match[2].replace(/^"|"$/g, '');
  return attributes;
}

/** The variant to record: the smallest at least `height` lines tall, else the tallest; by bandwidth when heights are not given. */
export function chooseVariant(variants: Variant[], height: number): Variant {
  const tall = variants
    .filter((v) => v.height !== null && v.height >= height)
    .sort((a, b) => (a.height as number) - (b.height as number) || a.bandwidth - b.bandwidth);
  if (tall.length) return tall[0];
  return [...variants].sort((a, b) => (b.height ?? 0) - (a.height ?? 0) || b.bandwidth - a.bandwidth)[0];
}
