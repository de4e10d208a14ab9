import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../contract/common';
import { mediaLinkResponseSchema } from '../../../contract/recordings';
import { AUDIO_LINK_WAIT_MS } from '../../../server/modules/recordings/library';
import { contentProgramme } from '../../../testkit/content-programmes';
import { integratedLufs } from '../../../testkit/loudness';
import { probe, recordingFile, seedFinishedRecordings } from '../helpers/audio-files';
import { createTestApp, type TestApp } from '../helpers/test-app';

describe('the audio-only file of a recording', () => {
  let t: TestApp;
  let operator: string;
  let root: string;
  let folder: string;
  let source: string;
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'audio-rendition-'));

  beforeAll(async () => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
    operator = (await t.createUser({ username: 'operator', role: 'user' })).token;
    root = path.join(t.config.dataDir, 'recordings');
    folder = path.join(root, 'adhoc', '2026-11-20');
    // A tone at about -21 LUFS with a silent 20 s lead-in, and a recording of picture alone.
    source = path.join(folder, 'rec-tone00000001', 'recording.mp4');
    recordingFile(source, contentProgramme({ fault: 'silent', from: 0, to: 20, seconds: 60 }));
    const mute = path.join(folder, 'rec-mute00000001', 'recording.mp4');
    recordingFile(mute, contentProgramme({ fault: 'no_audio', from: 0, to: 0, seconds: 20 }));
    const slow = path.join(folder, 'rec-slow00000001', 'recording.mp4');
    fs.mkdirSync(path.dirname(slow), { recursive: true });
    fs.copyFileSync(source, slow);
    await seedFinishedRecordings(t, [
      { id: 'rec-tone00000001', filePath: source, bytes: fs.statSync(source).size },
      { id: 'rec-mute00000001', filePath: mute, bytes: fs.statSync(mute).size },
      { id: 'rec-slow00000001', filePath: slow, bytes: fs.statSync(slow).size },
    ]);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(out, { recursive: true, force: true });
  });

  const audioLink = async (id: string) =>
    t.request({ method: 'POST', url: `/api/recordings/${id}/media-link?rendition=audio`, token: operator });

  it('is AAC in M4A, sound alone, the whole window long, at -16 LUFS, from a signed link', async () => {
    expect(integratedLufs(source)).toBeLessThan(-18); // far enough from the target for the test to mean something
    const link = await audioLink('rec-tone00000001');
    expect(link.statusCode).toBe(200);
    const { url, preparing } = mediaLinkResponseSchema.parse(link.json()).data;
    expect(preparing).toBe(false);
    expect(url).toMatch(/^\/api\/recordings\/rec-tone00000001\/media\?rendition=audio&token=/);

    const answer = await t.request({ method: 'GET', url });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('audio/mp4');
    const file = path.join(out, 'audio.m4a');
    fs.writeFileSync(file, answer.rawPayload);

    const { format, streams } = probe(file);
    expect(format.format_name).toContain('m4a');
    expect(streams.map((s) => `${s.codec_type}/${s.codec_name}`)).toEqual(['audio/aac']);
    expect(Math.abs(Number(format.duration) - Number(probe(source).format.duration))).toBeLessThanOrEqual(0.5);
    expect(Math.abs(integratedLufs(file) - -16)).toBeLessThanOrEqual(1);

    // Kept beside the media: the next link is ready at once, and a download names it as audio.
    expect(fs.readdirSync(path.dirname(source)).filter((name) => name.endsWith('.m4a'))).toHaveLength(1);
    const again = mediaLinkResponseSchema.parse((await audioLink('rec-tone00000001')).json()).data;
    const download = await t.request({ method: 'GET', url: `${again.url}&download=1` });
    expect(download.headers['content-disposition']).toBe('attachment; filename="recording.m4a"');
    expect(download.rawPayload.equals(answer.rawPayload)).toBe(true);
    // Ranges, as for the recording itself (the audio element seeks with them).
    const range = await t.request({ method: 'GET', url, headers: { range: 'bytes=0-99' } });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload).toHaveLength(100);
  });

  it('answers "preparing" when the file takes longer than the link waits; the link then waits for it', async () => {
    let answered = false;
    const asking = audioLink('rec-slow00000001').finally(() => (answered = true));
    // The link waits AUDIO_LINK_WAIT_MS on the test's clock: moved on to each timer due within that wait
    // until it answers (ffmpeg's two passes take far longer than the moment before the wait starts).
    // Moved on by the wait at every turn instead, a loaded PostgreSQL pass took that moment for days of
    // the test's clock: the operator's session ended as inactive and the next requests answered 401.
    while (!answered) {
      const next = t.clock.nextTimerAt();
      if (next !== undefined && next - t.clock.now().getTime() <= AUDIO_LINK_WAIT_MS) t.clock.set(new Date(next));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const first = mediaLinkResponseSchema.parse((await asking).json()).data;
    expect(first.preparing).toBe(true);
    const waited = await t.request({ method: 'GET', url: first.url });
    expect(waited.statusCode).toBe(200);
    expect(waited.headers['content-type']).toBe('audio/mp4');
    expect(mediaLinkResponseSchema.parse((await audioLink('rec-slow00000001')).json()).data.preparing).toBe(false);
  });

  it('signs the rendition: the audio link opens no video, the video link no audio', async () => {
    const audio = mediaLinkResponseSchema.parse((await audioLink('rec-tone00000001')).json()).data;
    const video = mediaLinkResponseSchema.parse(
      (await t.request({ method: 'POST', url: '/api/recordings/rec-tone00000001/media-link', token: operator })).json(),
    ).data;
    expect(video.preparing).toBeUndefined();
    const audioToken = new URL(audio.url, 'http://x').searchParams.get('token');
    const videoToken = new URL(video.url, 'http://x').searchParams.get('token');
    const base = '/api/recordings/rec-tone00000001/media';
    expect((await t.request({ method: 'GET', url: `${base}?token=${audioToken}` })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: `${base}?rendition=audio&token=${videoToken}` })).statusCode).toBe(
      401,
    );
    // Another recording's audio with this one's token: refused too.
    expect(
      (
        await t.request({
          method: 'GET',
          url: `/api/recordings/rec-mute00000001/media?rendition=audio&token=${audioToken}`,
        })
      ).statusCode,
    ).toBe(401);
    expect((await t.request({ method: 'GET', url: `${base}?rendition=video` })).statusCode).toBe(400);
    const withSession = await t.request({ method: 'GET', url: `${base}?rendition=audio`, token: operator });
    expect(withSession.headers['content-type']).toBe('audio/mp4');
  });

  it('answers a recording without sound with a 422 that says so, and makes no file', async () => {
    for (const answer of [
      await audioLink('rec-mute00000001'),
      await t.request({
        method: 'GET',
        url: '/api/recordings/rec-mute00000001/media?rendition=audio',
        token: operator,
      }),
    ]) {
      expect(answer.statusCode).toBe(422);
      expect(errorBodySchema.parse(answer.json()).detail).toBe(
        'This recording has no sound track: there is no audio to serve',
      );
    }
    expect(fs.readdirSync(path.join(folder, 'rec-mute00000001'))).toEqual(['recording.mp4']);
  });

  it("reports ffmpeg's failure on a file that is not media, with its message", async () => {
    const broken = path.join(folder, 'rec-mute00000001', 'recording.mp4');
    const kept = fs.readFileSync(broken);
    fs.writeFileSync(broken, Buffer.alloc(4096, 7));
    try {
      const answer = await audioLink('rec-mute00000001');
      expect(answer.statusCode).toBe(502);
      expect(errorBodySchema.parse(answer.json()).detail).toMatch(
        /^Making the audio-only file of this recording failed: ffprobe failed \(exit 1\): .*Invalid data/,
      );
    } finally {
      fs.writeFileSync(broken, kept);
    }
  });

  it('is deleted with the recording', async () => {
    const admin = await t.login();
    const gone = await t.request({ method: 'DELETE', url: '/api/recordings/rec-tone00000001', token: admin });
    expect(gone.statusCode).toBe(200);
    expect(fs.existsSync(path.dirname(source))).toBe(false);
  });
});
