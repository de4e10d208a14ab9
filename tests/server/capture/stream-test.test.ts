import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamTestResponseSchema } from '../../../contract/stream-test';
import { frameRate, shownSize, StreamTests } from '../../../server/modules/instances/stream-tests';
import { startFidelityOrigin, type FidelityOrigin } from '../../../testkit/fidelity-origin';
import { ManualClock } from '../../../testkit/manual-clock';
import { FRAME_CODE } from '../../../testkit/numbered-stream';
import { freePort } from '../../../testkit/ports';
import { createTestApp, type TestApp } from '../helpers/test-app';

// PostgreSQL pass: skipped: the recorder and the clips are files; the routes' database use is the session only.

/** Short tests (the product records STREAM_TEST_SECONDS): the recorder and its ffmpeg run for real. */
const SECONDS = 6;
const TTL_MS = 60_000;

describe('Test stream: a short recording through the recorder, reported and kept for a while', () => {
  let dataDir: string;
  let origin: FidelityOrigin;
  let page: http.Server;
  let pageUrl: string;
  const clock = new ManualClock(new Date());
  const streamTests = () =>
    new StreamTests({
      dataDir,
      clock,
      allowPrivateStreamHosts: true,
      checkStreamUrl: () => Promise.resolve([]),
      seconds: SECONDS,
      clipTtlMs: TTL_MS,
    });

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-stream-test-'));
    origin = await startFidelityOrigin({ minutes: 1, prePublishSegments: 3 });
    // A web page where a stream was expected.
    page = http.createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Live soon</body></html>'),
    );
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/live.m3u8`;
  });
  afterAll(async () => {
    await origin?.close();
    page?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("reports a live stream's codecs, picture size, frame rate and audio, and keeps a playable clip until it expires", async () => {
    const tests = streamTests();
    const report = await tests.test(origin.url);
    expect(streamTestResponseSchema.safeParse({ success: true, data: report }).success).toBe(true);
    expect(report.video).toEqual({
      codec: 'h264',
      width: FRAME_CODE.width,
      height: FRAME_CODE.height,
      frame_rate: FRAME_CODE.fps,
    });
    expect(report.audio).toEqual({ codec: 'aac', sample_rate: 44_100, channels: expect.any(Number) });
    expect(report.seconds).toBeGreaterThanOrEqual(SECONDS - 2);
    expect(report.seconds).toBeLessThanOrEqual(SECONDS + 2);
    expect(Date.parse(report.clip_expires_at)).toBe(clock.now().getTime() + TTL_MS);

    const clip = tests.clip(report.id);
    expect(clip.size).toBe(report.bytes);
    expect(fs.readFileSync(clip.path).subarray(4, 8).toString('latin1')).toBe('ftyp');

    clock.advance(TTL_MS);
    expect(() => tests.clip(report.id)).toThrow(/expired or does not exist/);
    expect(fs.existsSync(path.dirname(clip.path))).toBe(false);
  });

  it('says that nothing could be recorded from a stream that does not answer, and why', async () => {
    const url = `http://127.0.0.1:${await freePort()}/live.m3u8`;
    await expect(streamTests().test(url)).rejects.toMatchObject({
      statusCode: 422,
      message: expect.stringMatching(/^Nothing could be recorded from http:\/\/127\.0\.0\.1:\d+\/live\.m3u8: .+/),
    });
  });

  it('says a web page is not a stream', async () => {
    await expect(streamTests().test(pageUrl)).rejects.toMatchObject({
      statusCode: 422,
      message: expect.stringContaining(pageUrl),
    });
  });
});

describe("Test stream: the frame rate reported from ffprobe's reading", () => {
  it('gives the declared rate when the measured average is within 1% of it, else the measured average', () => {
    expect(frameRate({ r_frame_rate: '25/1', avg_frame_rate: '2499/100' })).toBe(25);
    expect(frameRate({ r_frame_rate: '30000/1001', avg_frame_rate: '30000/1001' })).toBe(29.97);
    // A variable-rate stream declares a base rate it never plays.
    expect(frameRate({ r_frame_rate: '60/1', avg_frame_rate: '24/1' })).toBe(24);
    expect(frameRate({ r_frame_rate: '25/1', avg_frame_rate: '0/0' })).toBeNull();
    expect(frameRate({ avg_frame_rate: '15/1' })).toBe(15);
  });
});

describe('POST /api/instances/stream-test', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    // The launch's host guard on, as in production.
    t = await createTestApp({ env: { ALLOW_PRIVATE_STREAM_HOSTS: '0' } });
    token = await t.login();
  });
  afterAll(() => t.close());

  const post = (payload: unknown, withToken = true) =>
    t.request({
      method: 'POST',
      url: '/api/instances/stream-test',
      ...(withToken && { token }),
      payload: payload as Record<string, unknown>,
    });

  it('refuses a stream on a private host as a launch does, recording nothing', async () => {
    const response = await post({ url: 'http://127.0.0.1:9/live.m3u8' });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(/private or internal network/);
    expect(fs.existsSync(path.join(t.config.dataDir, 'stream-tests'))).toBe(false);
  });

  it('refuses a missing or malformed URL and an unknown field, naming the field', async () => {
    for (const payload of [{}, { url: 'not a url' }, { url: 'https://example.org/live.m3u8', duration: 5 }]) {
      const response = await post(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it("tests a mosque's own stream, resolved from its ID_token through the same host guard; a mosque without one is refused", async () => {
    const add = async (mosque_id: string, ID_token?: string) =>
      expect(
        (
          await t.request({
            method: 'POST',
            url: '/api/config/mosques',
            token,
            payload: { mosque_id, name: `Mosque ${mosque_id}`, languages: ['en'], ID_token },
          })
        ).statusCode,
      ).toBe(201);
    await add('streamtst1', 'http://10.1.2.3/live.m3u8');
    await add('streamtst2');
    const own = await post({ mosque_id: 'streamtst1' });
    expect(own.statusCode).toBe(400);
    expect(own.json().detail).toMatch(
      /10\.1\.2\.3.*private or internal network|private or internal network.*10\.1\.2\.3/,
    );
    const none = await post({ mosque_id: 'streamtst2' });
    expect(none.statusCode).toBe(400);
    expect(none.json().detail).toBe('Mosque has no stream identifier (ID_token)');
    const unknown = await post({ mosque_id: 'nosuchmosq' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toBe('Mosque nosuchmosq not found');
    const both = await post({ mosque_id: 'streamtst1', url: 'https://example.org/live.m3u8' });
    expect(both.statusCode).toBe(400);
    expect(fs.existsSync(path.join(t.config.dataDir, 'stream-tests'))).toBe(false);
  });

  it('needs a session, and answers 404 for a clip it does not keep', async () => {
    expect((await post({ url: 'https://example.org/live.m3u8' }, false)).statusCode).toBe(401);
    const missing = await t.request({ method: 'GET', url: '/api/instances/stream-test/st-0123456789ab/clip', token });
    expect(missing.statusCode).toBe(404);
    const badId = await t.request({ method: 'GET', url: '/api/instances/stream-test/..%2F..%2Fsecret/clip', token });
    expect(badId.statusCode).toBe(400);
  });
});

describe('Test stream: the picture size reported', () => {
  it('is the size the picture is shown at: an anamorphic source’s width counts its pixels’ shape', () => {
    // 16:9 PAL: 720x576 pixels of 64:45 are shown 1024x576; 4:3 PAL (16:15) 768x576.
    expect(shownSize({ width: 720, height: 576, sample_aspect_ratio: '64:45' })).toEqual({ width: 1024, height: 576 });
    expect(shownSize({ width: 720, height: 576, sample_aspect_ratio: '16:15' })).toEqual({ width: 768, height: 576 });
    // Square pixels, or a shape ffprobe does not know (0:1), or none: the pixel count.
    expect(shownSize({ width: 1280, height: 720, sample_aspect_ratio: '1:1' })).toEqual({ width: 1280, height: 720 });
    expect(shownSize({ width: 320, height: 240, sample_aspect_ratio: '0:1' })).toEqual({ width: 320, height: 240 });
    expect(shownSize({ width: 320, height: 240 })).toEqual({ width: 320, height: 240 });
  });
});
