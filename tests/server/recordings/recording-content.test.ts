import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../contract/common';
import { recordingContentResponseSchema, recordingsLibraryResponseSchema } from '../../../contract/recordings';
import { contentFileOf, type ContentSummary, type ContentWindow } from '../../../recorder/protocol';
import { keepContent } from '../../../recorder/recorder-handover';
import type { RecorderConfig } from '../../../recorder/recorder-state';
import type { ProviderRecording } from '../../../server/capture/provider';
import { addMosques } from '../helpers/mosques';
import { recordingReading, seedRecording } from '../helpers/recordings';
import { createTestApp, type TestApp } from '../helpers/test-app';

const WINDOW_START = Date.parse('2026-11-27T11:40:00.000Z');

const summary = (fields: Partial<ContentSummary> = {}): ContentSummary => ({
  measuredSeconds: 600,
  integratedLufs: -19.6,
  peakDbfs: -1.5,
  longestSilenceSeconds: 180,
  silentSeconds: 180,
  frozenSeconds: 0,
  blackSeconds: 0,
  conditions: [],
  ...fields,
});

/** 60 windows of 10 s: a speaker at -20 LUFS, muted from 200 s to 380 s. */
function windows(): ContentWindow[] {
  return Array.from({ length: 60 }, (_, i) => {
    const silent = i >= 20 && i < 38;
    return {
      start: new Date(WINDOW_START + i * 10_000).toISOString(),
      measured: 10,
      loudness: silent ? null : -20,
      blocks: silent ? 0 : 100,
      momentaryMax: silent ? -91.2 : -14,
      silent: silent ? 10 : 0,
      frozen: 0,
      black: 0,
      video: true,
    };
  });
}

/**
 * The recording's content as the API serves it: the content file a recorder keeps beside the media
 * (written here by the recorder's own keepContent) read back as the loudness strip, and the library's
 * "content warnings" filter over recordings that raised a content alarm or ended with a warning.
 */
describe('recording content: the loudness strip and the content warnings filter', () => {
  let t: TestApp;
  let token: string;
  let root: string;

  /** A captured recording of `instanceId` with a media file in the local store; its path. */
  async function captured(instanceId: string, fields: Partial<ProviderRecording> = {}): Promise<string> {
    const file = path.join(root, 'cont000001', `${instanceId}.mp4`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, Buffer.alloc(2048, 1));
    await t.app.ctx.recordings.applyReading(
      instanceId,
      recordingReading({ status: 'captured', coveredSeconds: 600, bytes: 2048, filePath: file, ...fields }),
    );
    return file;
  }
  const contentOf = (instanceId: string) =>
    t.request({ method: 'GET', url: `/api/recordings/rec-${instanceId}/content`, token });

  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login();
    root = path.join(t.config.dataDir, 'recordings');
    await addMosques(t, token, 'cont000001');
    for (const id of ['cap-strip0001', 'cap-warned001', 'cap-clean0001', 'cap-running01', 'cap-broken001'])
      await seedRecording(t, id, 'cont000001');
  });
  afterAll(async () => t?.close());

  it('serves the strip, the integrated loudness and the longest silence the recorder kept beside the media', async () => {
    // A silence long enough to raise audio_silent while recording (the default threshold, 120 s).
    await t.app.ctx.recordings.applyReading(
      'cap-strip0001',
      recordingReading({
        content: summary({
          conditions: [{ kind: 'audio_silent', since: '2026-11-27T11:43:20.000Z', seconds: 125 }],
        }),
      }),
    );
    const file = await captured('cap-strip0001', { content: summary() });
    const windowsFile = path.join(t.config.dataDir, 'content.jsonl');
    fs.writeFileSync(
      windowsFile,
      windows()
        .map((w) => `${JSON.stringify(w)}\n`)
        .join(''),
    );
    const config = { outputPath: file } as RecorderConfig;
    expect(await keepContent(null, t.config.dataDir, config, summary(), windowsFile)).toBeNull();
    expect(fs.existsSync(contentFileOf(file))).toBe(true);

    const response = await contentOf('cap-strip0001');
    expect(response.statusCode, response.body).toBe(200);
    const content = recordingContentResponseSchema.parse(response.json()).data;
    expect(content).toMatchObject({
      measured_seconds: 600,
      integrated_lufs: -19.6,
      peak_dbfs: -1.5,
      longest_silence_seconds: 180,
      silent_seconds: 180,
    });
    expect(content?.windows).toHaveLength(60);
    expect(content?.windows[0]).toEqual({
      start: '2026-11-27T11:40:00.000Z',
      measured_seconds: 10,
      loudness_lufs: -20,
      momentary_max_lufs: -14,
      silent_seconds: 0,
      frozen_seconds: 0,
      black_seconds: 0,
    });
    expect(content?.windows.filter((w) => w.silent_seconds > 0)).toHaveLength(18);

    // Deleting the recording deletes its readings with its media.
    const deleted = await t.request({ method: 'DELETE', url: '/api/recordings/rec-cap-strip0001', token });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(contentFileOf(file))).toBe(false);
  });

  it('answers null while recording and for a recording without readings, and names a file that is not one', async () => {
    await captured('cap-clean0001');
    expect(recordingContentResponseSchema.parse((await contentOf('cap-clean0001')).json()).data).toBeNull();
    expect(recordingContentResponseSchema.parse((await contentOf('cap-running01')).json()).data).toBeNull();

    const file = await captured('cap-broken001');
    fs.writeFileSync(contentFileOf(file), JSON.stringify({ summary: summary(), windows: [{ start: 'yesterday' }] }));
    const broken = await contentOf('cap-broken001');
    expect(broken.statusCode).toBe(502);
    expect(errorBodySchema.parse(broken.json()).detail).toMatch(
      /^The content readings of recording rec-cap-broken001 are not a recorder's: /,
    );

    const missing = await t.request({ method: 'GET', url: '/api/recordings/rec-cap-nothing01/content', token });
    expect(missing.statusCode).toBe(404);
  });

  it('filters the library to the recordings that raised a content alarm or ended with a content warning', async () => {
    await captured('cap-warned001', {
      content: summary({ silentSeconds: 420, longestSilenceSeconds: 100 }),
    });
    const ids = async (query: string) => {
      const response = await t.request({ method: 'GET', url: `/api/recordings?${query}`, token });
      expect(response.statusCode, response.body).toBe(200);
      return recordingsLibraryResponseSchema
        .parse(response.json())
        .data.recordings.map((r) => r.id)
        .sort();
    };
    // rec-cap-strip0001 raised audio_silent but was deleted above; rec-cap-running01 raises one now, while recording.
    await t.app.ctx.recordings.applyReading(
      'cap-running01',
      recordingReading({
        content: summary({ conditions: [{ kind: 'audio_silent', since: '2026-11-27T11:43:20.000Z', seconds: 121 }] }),
      }),
    );
    expect(await ids('content_warnings=1')).toEqual(['rec-cap-running01', 'rec-cap-warned001']);
    expect(await ids('content_warnings=1&q=warned')).toEqual(['rec-cap-warned001']);
    expect(await ids('')).toHaveLength(4);
    const bad = await t.request({ method: 'GET', url: '/api/recordings?content_warnings=yes', token });
    expect(bad.statusCode).toBe(400);
  });
});
