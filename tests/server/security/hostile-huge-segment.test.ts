import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgressPin } from '../../../recorder/egress-guard';
import { SEGMENT_MAX_BYTES } from '../../../recorder/hls-http';
import { ledgerCoverage, SegmentLedger } from '../../../recorder/hls-ledger';
import type { MediaSegment } from '../../../recorder/hls-playlist';
import { readHls } from '../../../recorder/hls-reader';
import { Pause } from '../../../recorder/recorder-window';
import { scaled } from '../../../testkit/time-scale';

// PostgreSQL pass: skipped: the segment reader against a loopback origin, no database

const MIB = 1024 * 1024;
const HUGE_BYTES = 768 * MIB;

/*
 * A hostile origin lists one "segment" of 768 MiB (and claims it lasts an hour) among ordinary ones.
 * The reader must take no more of it than its cap, refuse it with a cause the recording shows, count
 * no hour of content for it, and go on with the next segments.
 */
describe('hostile stream: one huge segment', () => {
  let origin: http.Server;
  let base: string;
  let hugeSent = 0;

  beforeAll(async () => {
    origin = http.createServer((request, response) => {
      if (request.url === '/live.m3u8') {
        const segments = [0, 1, 2, 3, 4]
          .map((n) => `#EXTINF:${n === 2 ? 3600 : 2},\n${n === 2 ? 'huge' : `s${n}`}.ts\n`)
          .join('');
        return void response
          .writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' })
          .end(`#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n${segments}#EXT-X-ENDLIST\n`);
      }
      if (request.url === '/huge.ts') {
        // Declares nothing (chunked): the cap is met while reading, as a lying origin would make it.
        response.writeHead(200, { 'content-type': 'video/mp2t' });
        const chunk = Buffer.alloc(MIB);
        const more = () => {
          while (!response.destroyed && hugeSent < HUGE_BYTES) {
            hugeSent += chunk.length;
            if (!response.write(chunk)) break;
          }
          if (hugeSent >= HUGE_BYTES) response.end();
          else if (!response.destroyed) response.once('drain', more);
        };
        response.on('close', () => response.removeAllListeners('drain'));
        return more();
      }
      response.writeHead(200, { 'content-type': 'video/mp2t' }).end(Buffer.alloc(188 * 100, 0x47));
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    origin.closeAllConnections();
    await new Promise((resolve) => origin.close(resolve));
  });

  it(
    'refuses it at its cap with a cause in the log and the gaps, and records the segments after it',
    async () => {
      const ledger = new SegmentLedger(null);
      const written: { sequence: number; bytes: number }[] = [];
      const log: string[] = [];
      const now = Date.now();
      await readHls({
        url: `${base}/live.m3u8`,
        pin: createEgressPin({ allowPrivate: true, trustedHosts: [] }),
        height: 180,
        window: { start: now - 60_000, end: now + 60_000 },
        ledger,
        sink: {
          write: async (
            segment: MediaSegment,
            bytes: Uint8Array,
            _continuous: boolean,
            kept: (run: number) => void,
          ) => {
            written.push({ sequence: segment.sequence, bytes: bytes.length });
            kept(1);
            return 1;
          },
        },
        pause: new Pause(),
        // Every segment listed has been dealt with: nothing more will come from an ended playlist.
        stopped: () => ledger.kept.some((k) => k.sequence === 4),
        log: (line) => log.push(line),
        progressed: () => undefined,
        persist: () => undefined,
      });
      expect(written.map((w) => w.sequence)).toEqual([0, 1, 3, 4]);
      expect(hugeSent).toBeLessThan(SEGMENT_MAX_BYTES + 16 * MIB);
      const lost = ledger.lost.find((l) => /segment 2/.test(l.reason));
      expect(lost?.reason).toBe('segment 2: answer over its 64 MiB cap: refused');
      // Its hour-long EXTINF is clamped to the target duration (2 s, with the half second it may round by).
      expect(lost?.seconds).toBe(2.5);
      expect(log.join('\n')).toContain('segment 2 could not be fetched (answer over its 64 MiB cap: refused)');
      const { gaps } = ledgerCoverage(ledger, { start: now - 60_000, end: now + 60_000 }, Date.now(), (ms) =>
        new Date(ms).toISOString(),
      );
      expect(gaps).toContainEqual(
        expect.objectContaining({
          cause: 'stream_refused',
          reason: 'Stream refused (segment 2: answer over its 64 MiB cap: refused)',
        }),
      );
    },
    scaled(60_000),
  );
});
