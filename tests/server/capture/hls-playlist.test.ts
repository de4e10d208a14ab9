import { describe, expect, it } from 'vitest';
import { chooseVariant, parsePlaylist, PlaylistError, type MediaPlaylist } from '../../../recorder/hls-playlist';

const BASE = 'https://cdn.example.org/live/stream/index.m3u8';

describe('HLS playlists as the segment recorder reads them', () => {
  it('numbers a live media playlist by its media sequence, with durations, discontinuities and absolute URIs', () => {
    const playlist = parsePlaylist(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-TARGETDURATION:2',
        '#EXT-X-MEDIA-SEQUENCE:41',
        '#EXT-X-DISCONTINUITY-SEQUENCE:3',
        '#EXT-X-PROGRAM-DATE-TIME:2026-11-27T11:40:00.000Z',
        '#EXTINF:2.000,',
        'seg41.ts',
        '#EXTINF:1.960,',
        '../other/seg42.ts?token=a',
        '#EXT-X-DISCONTINUITY',
        '#EXTINF:2.0,',
        'https://edge.example.org/seg0.ts',
      ].join('\r\n'),
      BASE,
    ) as MediaPlaylist;
    expect(playlist).toMatchObject({
      kind: 'media',
      targetDuration: 2,
      mediaSequence: 41,
      discontinuitySequence: 3,
      ended: false,
      unsupported: null,
    });
    // The program date-time is the first segment's; the next follows on from it; after a discontinuity nothing says.
    const programmeAt = Date.parse('2026-11-27T11:40:00.000Z');
    expect(playlist.segments).toEqual([
      {
        sequence: 41,
        uri: 'https://cdn.example.org/live/stream/seg41.ts',
        duration: 2,
        discontinuity: false,
        programTime: programmeAt,
      },
      {
        sequence: 42,
        uri: 'https://cdn.example.org/live/other/seg42.ts?token=a',
        duration: 1.96,
        discontinuity: false,
        programTime: programmeAt + 2000,
      },
      { sequence: 43, uri: 'https://edge.example.org/seg0.ts', duration: 2, discontinuity: true, programTime: null },
    ]);
  });

  it('sees the end of a broadcast, and a playlist without a target duration takes its longest segment', () => {
    const playlist = parsePlaylist(
      '#EXTM3U\n#EXTINF:3.2,\na.ts\n#EXTINF:4,\nb.ts\n#EXT-X-ENDLIST\n',
      BASE,
    ) as MediaPlaylist;
    expect(playlist).toMatchObject({ ended: true, targetDuration: 4, mediaSequence: 0 });
    expect(playlist.segments.map((s) => s.sequence)).toEqual([0, 1]);
  });

  it('marks segments it cannot copy as they are, so ffmpeg reads that stream', () => {
    const key = parsePlaylist(
      '#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI="k.key"\n#EXTINF:2,\na.ts\n',
      BASE,
    ) as MediaPlaylist;
    expect(key.unsupported).toBe('its segments are encrypted');
    const clear = parsePlaylist('#EXTM3U\n#EXT-X-KEY:METHOD=NONE\n#EXTINF:2,\na.ts\n', BASE) as MediaPlaylist;
    expect(clear.unsupported).toBeNull();
    const fmp4 = parsePlaylist('#EXTM3U\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:2,\na.m4s\n', BASE) as MediaPlaylist;
    expect(fmp4.unsupported).toBe('its segments are fragmented MP4');
  });

  it('reads variants (quoted attributes may hold commas) and records the smallest at least as tall as the recording', () => {
    const playlist = parsePlaylist(
      [
        '#EXTM3U',
        '#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401e,mp4a.40.2",RESOLUTION=640x360',
        '360p.m3u8',
        '#EXT-X-STREAM-INF:BANDWIDTH=2500000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=1280x720',
        '720p.m3u8',
        '#EXT-X-STREAM-INF:BANDWIDTH=5000000,RESOLUTION=1920x1080',
        'https://other.example.org/1080p.m3u8',
      ].join('\n'),
      BASE,
    );
    if (playlist.kind !== 'multivariant') throw new Error('expected a multivariant playlist');
    expect(playlist.variants.map((v) => [v.height, v.bandwidth])).toEqual([
      [360, 800000],
      [720, 2500000],
      [1080, 5000000],
    ]);
    expect(chooseVariant(playlist.variants, 720).uri).toBe('https://cdn.example.org/live/stream/720p.m3u8');
    expect(chooseVariant(playlist.variants, 480).uri).toBe('https://cdn.example.org/live/stream/720p.m3u8');
    expect(chooseVariant(playlist.variants, 2160).uri).toBe('https://other.example.org/1080p.m3u8');
  });

  it('refuses what is not a playlist, or a segment without a duration', () => {
    expect(() => parsePlaylist('<html>not found</html>', BASE)).toThrow(PlaylistError);
    expect(() => parsePlaylist('#EXTM3U\na.ts\n', BASE)).toThrow(/has no #EXTINF/);
  });
});
