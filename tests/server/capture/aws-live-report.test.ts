import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveReport } from '../../../recorder/protocol';
import { StoreShipper } from '../../../recorder/recorder-delivery';
import { alarmSignature } from '../../../recorder/protocol';
import { LiveReporter } from '../../../recorder/recorder-live';
import { LIVE_REPORT_STALE_MS } from '../../../server/capture/aws/driver';
import {
  liveReadingAt,
  LiveReports,
  parseLiveReport,
  type ReadIfChanged,
} from '../../../server/capture/aws/live-report';
import { ManualClock } from '../../../testkit/manual-clock';
import { S3RecordingStore } from '../../../server/storage/s3-store';
import { startMoto, type MotoServer } from '../../../testkit/capture';
import { scaled } from '../../../testkit/time-scale';
import { pause, waitFor } from '../../../testkit/wait';

// PostgreSQL pass: skipped: no database; the store is moto's S3

const REPORT: LiveReport = {
  launchKey: 'key-of-launch-1',
  measuredUntil: '2026-11-27T12:01:30.000Z',
  bytes: 1_200_000,
  mediaSeconds: 88.5,
  content: {
    measuredSeconds: 88,
    integratedLufs: -19.2,
    peakDbfs: -3.1,
    longestSilenceSeconds: 41,
    silentSeconds: 41,
    frozenSeconds: 0,
    blackSeconds: 0,
    conditions: [{ kind: 'audio_silent', since: '2026-11-27T12:00:49.000Z', seconds: 41 }],
  },
};
const WINDOW = { windowStart: '2026-11-27T12:00:00.000Z', windowEnd: '2026-11-27T13:00:00.000Z' };
const MEDIA = 'livemosque/2026-11-27/rec-live1/20261127T120000Z.mp4';
/** A hole in the media from `start` to `end`: the stream stalled. */
const gap = (start: string, end: string) => ({
  start,
  end,
  cause: 'stream_stalled' as const,
  reason: 'The stream published no new segment for 20 s',
  content_lost_seconds: (Date.parse(end) - Date.parse(start)) / 1000,
});
const LIVE_KEY = 'livemosque/2026-11-27/rec-live1/live.json';

describe('parseLiveReport', () => {
  it('reads a recorder live report', () => {
    expect(parseLiveReport(JSON.stringify(REPORT))).toEqual(REPORT);
    expect(parseLiveReport(JSON.stringify({ ...REPORT, content: null }))).toEqual({ ...REPORT, content: null });
  });

  it('says what is wrong with one that is not', () => {
    expect(() => parseLiveReport('{"launchKey": "key-of')).toThrow(/^not JSON \(/);
    expect(() => parseLiveReport(JSON.stringify({ ...REPORT, bytes: -1 }))).toThrow(/bytes/);
    expect(() => parseLiveReport(JSON.stringify({ ...REPORT, measuredUntil: 'at noon' }))).toThrow(/measuredUntil/);
    const unknownCondition = {
      ...REPORT,
      content: { ...REPORT.content, conditions: [{ kind: 'too_loud', since: REPORT.measuredUntil, seconds: 9 }] },
    };
    expect(() => parseLiveReport(JSON.stringify(unknownCondition))).toThrow(/content\.conditions\[0\]\.kind/);
    expect(() => parseLiveReport(JSON.stringify({ ...REPORT, launchKey: undefined }))).toThrow(/launchKey/);
  });
});

describe('liveReadingAt (a live report no longer refreshed)', () => {
  const report: LiveReport = { ...REPORT, ...WINDOW };
  const written = Date.parse(REPORT.measuredUntil);
  const current = { bytes: REPORT.bytes, mediaSeconds: REPORT.mediaSeconds, content: REPORT.content };

  it('stands as written up to three missed periods', () => {
    expect(liveReadingAt(report, written, LIVE_REPORT_STALE_MS)).toEqual(current);
    expect(liveReadingAt(report, written + LIVE_REPORT_STALE_MS, LIVE_REPORT_STALE_MS)).toEqual(current);
  });

  it('past them while the window is open: no condition, and the recorder down since the report was written', () => {
    const now = written + LIVE_REPORT_STALE_MS + 1000;
    expect(liveReadingAt(report, now, LIVE_REPORT_STALE_MS)).toEqual({
      bytes: REPORT.bytes,
      mediaSeconds: REPORT.mediaSeconds,
      content: null,
      gaps: [
        {
          start: REPORT.measuredUntil,
          end: new Date(now).toISOString(),
          cause: 'recorder_down',
          reason: 'The recorder stopped reporting: its last live report was written at 12:01:30 UTC',
          content_lost_seconds: 91,
        },
      ],
      measuredUntil: new Date(now).toISOString(),
    });
  });

  it("a report written before the window opened: down from the window's start", () => {
    const early = { ...report, measuredUntil: '2026-11-27T11:58:00.000Z' };
    const now = Date.parse(WINDOW.windowStart) + 30_000;
    expect(liveReadingAt(early, now, LIVE_REPORT_STALE_MS).gaps).toEqual([
      expect.objectContaining({ start: WINDOW.windowStart, content_lost_seconds: 30 }),
    ]);
    // Before the window opens nothing is judged: the recorder may still be booting.
    expect(liveReadingAt(early, Date.parse(WINDOW.windowStart) - 1000, LIVE_REPORT_STALE_MS)).toEqual(current);
  });

  it("carries the recorder's coverage, measured until the report was written; stale, the recorder down after it", () => {
    const coverage = {
      expectedSeconds: 90,
      coveredSeconds: 50,
      gaps: [gap(WINDOW.windowStart, '2026-11-27T12:00:40.000Z')],
      reconnects: 1,
    };
    const covered = { ...report, coverage };
    expect(liveReadingAt(covered, written + 5000, LIVE_REPORT_STALE_MS)).toEqual({
      ...current,
      expectedSeconds: 90,
      coveredSeconds: 50,
      gaps: coverage.gaps,
      reconnects: 1,
      measuredUntil: REPORT.measuredUntil,
    });
    const stale = liveReadingAt(covered, written + 100_000, LIVE_REPORT_STALE_MS);
    expect(stale.gaps?.map((g) => `${g.cause} ${g.start.slice(11, 19)}-${g.end.slice(11, 19)}`)).toEqual([
      'stream_stalled 12:00:00-12:00:40',
      'recorder_down 12:01:30-12:03:10',
    ]);
    expect(stale).toMatchObject({ coveredSeconds: 50, content: null, measuredUntil: '2026-11-27T12:03:10.000Z' });
  });

  it('is not judged once the window closed (the recorder joins and delivers), nor without a window', () => {
    const late = Date.parse(WINDOW.windowEnd) + 5 * 60_000;
    expect(liveReadingAt({ ...report, measuredUntil: WINDOW.windowEnd }, late, LIVE_REPORT_STALE_MS)).toEqual(current);
    expect(liveReadingAt(REPORT, written + 10 * LIVE_REPORT_STALE_MS, LIVE_REPORT_STALE_MS)).toEqual(current);
  });
});

describe('alarmSignature (when a recorder ships its live report at once)', () => {
  const silent = (seconds: number) => ({
    ...REPORT.content!,
    conditions: [{ kind: 'audio_silent' as const, since: REPORT.measuredUntil, seconds }],
  });
  it('changes when a condition starts, reaches its threshold or ends, not as it merely lasts', () => {
    expect(alarmSignature(null, 120)).toBe('');
    expect(alarmSignature(silent(3), 120)).toBe(alarmSignature(silent(119), 120));
    expect(alarmSignature(silent(120), 120)).not.toBe(alarmSignature(silent(119), 120));
    expect(alarmSignature(silent(120), 120)).toBe(alarmSignature(silent(600), 120));
    // A missing sound track is alarmed after 30 s whatever the threshold (contentAlarmSecondsOf).
    const missing = (seconds: number) => ({
      ...REPORT.content!,
      conditions: [{ kind: 'audio_missing' as const, since: REPORT.measuredUntil, seconds }],
    });
    expect(alarmSignature(missing(30), 120)).not.toBe(alarmSignature(missing(29), 120));
  });
});

/** The reader against moto's S3: one GET per pass, a 304 without a body when nothing changed. */
describe('LiveReports on an s3 store', () => {
  const saved = { ...process.env };
  let moto: MotoServer;
  let store: S3RecordingStore;
  const answers: string[] = [];
  const warnings: { key: string; reason: string }[] = [];
  let reports: LiveReports;
  // Each report is read as it is written: none is old enough to be judged.
  const clock = new ManualClock(REPORT.measuredUntil);

  beforeAll(async () => {
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'testing',
      AWS_SECRET_ACCESS_KEY: 'testing',
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    moto = await startMoto();
    await new S3Client({ region: 'us-east-1', endpoint: moto.url, forcePathStyle: true }).send(
      new CreateBucketCommand({ Bucket: 'live' }),
    );
    store = new S3RecordingStore({ bucket: 'live', prefix: 'captures/', region: 'us-east-1', endpoint: moto.url });
    const read: ReadIfChanged = async (key, etag) => {
      const answer = await store.readTextIfChanged(key, etag);
      answers.push(answer === null ? 'missing' : answer === 'unchanged' ? 'unchanged' : 'read');
      return answer;
    };
    reports = new LiveReports(read, (detail) => warnings.push(detail), clock, LIVE_REPORT_STALE_MS);
  }, scaled(60_000));
  afterAll(async () => {
    await moto?.stop();
    process.env = saved;
  });

  it('reads a report once per change, keeps the last good one over a bad one, and tells that once', async () => {
    // Not shipped yet: normal, nothing told.
    expect(await reports.reading(MEDIA, REPORT.launchKey)).toBeUndefined();
    await store.putText(LIVE_KEY, JSON.stringify(REPORT), 'application/json');
    const expected = { bytes: REPORT.bytes, mediaSeconds: REPORT.mediaSeconds, content: REPORT.content };
    expect(await reports.reading(MEDIA, REPORT.launchKey)).toEqual(expected);
    expect(await reports.reading(MEDIA, REPORT.launchKey)).toEqual(expected);
    expect(answers).toEqual(['missing', 'read', 'unchanged']);

    // Cut short (or written by something else): the last good report stands, told once with the reason.
    await store.putText(LIVE_KEY, '{"launchKey":"key-of-launch-1","bytes":', 'application/json');
    expect(await reports.reading(MEDIA, REPORT.launchKey)).toEqual(expected);
    expect(await reports.reading(MEDIA, REPORT.launchKey)).toEqual(expected);
    expect(warnings).toEqual([
      { key: `${LIVE_KEY}`, reason: expect.stringMatching(/^it is not a recorder's live report: not JSON/) },
    ]);

    // The silence ended: the next report resolves it, and a new problem would be told again.
    const spoken = { ...REPORT, content: { ...REPORT.content!, conditions: [] } };
    await store.putText(LIVE_KEY, JSON.stringify(spoken), 'application/json');
    expect((await reports.reading(MEDIA, REPORT.launchKey))?.content?.conditions).toEqual([]);
    expect(answers.slice(3)).toEqual(['read', 'unchanged', 'read']);

    // Written by the machine this launch replaced: not this recording's live report yet.
    expect(await reports.reading(MEDIA, 'key-of-launch-2')).toBeUndefined();
  });

  it('tells a store it cannot read, keeping the last report meanwhile', async () => {
    let broken = false;
    const flaky = new LiveReports(
      async (key, etag) => {
        if (broken) throw new Error('AccessDenied');
        return store.readTextIfChanged(key, etag);
      },
      (detail) => warnings.push(detail),
      clock,
      LIVE_REPORT_STALE_MS,
    );
    warnings.length = 0;
    await store.putText(LIVE_KEY, JSON.stringify({ ...REPORT, ...WINDOW }), 'application/json');
    expect((await flaky.reading(MEDIA, REPORT.launchKey))?.content).toEqual(REPORT.content);
    broken = true;
    // The silence is still reported as going on: a failed read resolves no alarm.
    expect((await flaky.reading(MEDIA, REPORT.launchKey))?.content).toEqual(REPORT.content);
    expect((await flaky.reading(MEDIA, REPORT.launchKey))?.content).toEqual(REPORT.content);
    // However long the store refuses: the report is not taken for a recorder that stopped reporting.
    clock.set(new Date(Date.parse(REPORT.measuredUntil) + 10 * LIVE_REPORT_STALE_MS));
    expect((await flaky.reading(MEDIA, REPORT.launchKey))?.content).toEqual(REPORT.content);
    expect(warnings).toEqual([{ key: LIVE_KEY, reason: 'could not read it: AccessDenied' }]);
    // The store answers again, the same report: now it is judged by its age.
    broken = false;
    expect(await flaky.reading(MEDIA, REPORT.launchKey)).toMatchObject({ content: null });
    clock.set(REPORT.measuredUntil);
  });

  it('forgets the reports of recordings no longer running', async () => {
    await reports.reading(MEDIA, REPORT.launchKey);
    answers.length = 0;
    await reports.reading(MEDIA, REPORT.launchKey);
    reports.keepOnly(new Set());
    await reports.reading(MEDIA, REPORT.launchKey);
    // Forgotten: read whole again, not asked whether it changed.
    expect(answers).toEqual(['unchanged', 'read']);
  });
});

/** The recorder's side: what it ships, and when, through the POST policy it delivers its pieces with. */
describe('LiveReporter shipping through a POST policy', () => {
  const saved = { ...process.env };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-live-reporter-'));
  let moto: MotoServer;
  let store: S3RecordingStore;

  beforeAll(async () => {
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing' });
    moto = await startMoto();
    await new S3Client({ region: 'us-east-1', endpoint: moto.url, forcePathStyle: true }).send(
      new CreateBucketCommand({ Bucket: 'shipped' }),
    );
    store = new S3RecordingStore({ bucket: 'shipped', prefix: 'captures/', region: 'us-east-1', endpoint: moto.url });
  }, scaled(60_000));
  afterAll(async () => {
    await moto?.stop();
    process.env = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('ships at once when a condition starts, reaches its threshold or ends, else once a period', async () => {
    const prefix = 'livemosque/2026-11-27/rec-live2/';
    const shipper = new StoreShipper(
      {
        kind: 'presigned-post',
        post: await store.presignedPost(prefix, 600),
        keyPrefix: `captures/${prefix}`,
        mediaKey: `${prefix}20261127T120000Z.mp4`,
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
      },
      () => undefined,
      0,
      path.join(dir, 'delivered.txt'),
      REPORT.measuredUntil,
    );
    const reporter = new LiveReporter(
      shipper,
      path.join(dir, 'live.json'),
      { everySeconds: 30 },
      40,
      REPORT.launchKey,
      WINDOW,
      () => undefined,
    );
    const shipped = async () => {
      const answer = await store.readTextIfChanged(`${prefix}live.json`, null);
      return answer && answer !== 'unchanged' ? parseLiveReport(answer.text) : null;
    };
    const silentFor = (seconds: number) => ({
      ...REPORT,
      content: { ...REPORT.content!, conditions: [{ ...REPORT.content!.conditions[0]!, seconds }] },
    });
    const at = (second: number) => new Date(Date.parse(REPORT.measuredUntil) + second * 1000).toISOString();
    // Each offer is a state the recorder wrote, `second` seconds into its run.
    const shipsAt = async (report: LiveReport, second: number) => {
      reporter.offer(report, at(second), second * 1000);
      await waitFor(
        async () => (await shipped())?.measuredUntil === at(second),
        `the report of second ${second}`,
        10_000,
      );
    };
    /** Not shipped: the store keeps the report of `kept` (given a moment to show a shipment that should not be). */
    const keeps = async (report: LiveReport, second: number, kept: number) => {
      reporter.offer(report, at(second), second * 1000);
      await pause(300);
      expect((await shipped())?.measuredUntil).toBe(at(kept));
    };

    await shipsAt({ ...REPORT, content: null }, 0);
    await keeps({ ...REPORT, content: null }, 5, 0);
    // Silent: at once; then again at the period (30 s) and when it reaches its threshold (40 s), not as it merely lasts.
    await shipsAt(silentFor(1), 10);
    await keeps(silentFor(20), 30, 10);
    await shipsAt(silentFor(30), 40);
    await shipsAt(silentFor(40), 45);
    await keeps(silentFor(45), 50, 45);
    // Sound back: at once.
    await shipsAt({ ...REPORT, content: { ...REPORT.content!, conditions: [] } }, 55);
    expect(await shipped()).toMatchObject({
      launchKey: REPORT.launchKey,
      ...WINDOW,
      bytes: REPORT.bytes,
      content: { conditions: [] },
    });

    // The stream stalls at 60 s: shipped when its gap passes 60 s (the stall alarm's threshold) and when it ends.
    const spoken = { ...REPORT, content: { ...REPORT.content!, conditions: [] } };
    const stalledUntil = (second: number) => ({
      ...spoken,
      coverage: {
        expectedSeconds: 3600,
        coveredSeconds: 60,
        gaps: [gap(at(60), at(second))],
        reconnects: 0,
      },
    });
    // A gap is no reason to ship before it is a stall: then at the period (30 s after 55).
    await keeps(stalledUntil(80), 80, 55);
    await shipsAt(stalledUntil(85), 85);
    await keeps(stalledUntil(110), 110, 85);
    await shipsAt(stalledUntil(121), 121);
    await keeps(stalledUntil(125), 125, 121);
    const back = { ...stalledUntil(130), coverage: { ...stalledUntil(130).coverage, coveredSeconds: 62 } };
    await shipsAt({ ...back, coverage: { ...back.coverage, gaps: [gap(at(60), at(130))] } }, 132);
    expect((await shipped())?.coverage?.gaps).toEqual([gap(at(60), at(130))]);
  });
});
