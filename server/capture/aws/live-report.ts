import { z } from 'zod';
import { INSTANCE_FILES, type LiveReport } from '../../../recorder/protocol';
import { contentLostSeconds } from '../../../recorder/recorder-coverage';
import type { Clock } from '../../lib/clock';
import { contentSummarySchema } from '../content-schema';
import type { ProviderRecording } from '../provider';
import { coverageSchema } from './stored-result';

/*
 * The live report an EC2 recorder ships while its window is open (recorder/recorder-live.ts): live.json
 * beside its recording's media in the store. The aws driver reads it for each running recording at
 * each pass over its instances (every 10 s), so the content and stall alarms of a cloud recording are
 * raised and resolved as a local one's are, from the same readings, and a report its recorder stopped
 * refreshing while the window is open is told as the recorder down (liveReadingAt).
 */

const instant = z.iso.datetime({ offset: true });
const liveReportSchema = z.object({
  launchKey: z.string().min(1),
  measuredUntil: instant,
  windowStart: instant.optional(),
  windowEnd: instant.optional(),
  bytes: z.number().int().nonnegative(),
  mediaSeconds: z.number().nonnegative(),
  coverage: coverageSchema.nullable().optional(),
  content: contentSummarySchema.nullable(),
}) satisfies z.ZodType<LiveReport>;

/** A live.json's text as a live report; throws what is wrong with it. */
export function parseLiveReport(text: string): LiveReport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`not JSON (${(error as Error).message})`, { cause: error });
  }
  const parsed = liveReportSchema.safeParse(json);
  if (!parsed.success) throw new Error(z.prettifyError(parsed.error));
  return parsed.data;
}

/** The live.json of the recording whose joined file is `mediaKey`. */
export const liveReportKey = (mediaKey: string) =>
  `${mediaKey.slice(0, mediaKey.lastIndexOf('/') + 1)}${INSTANCE_FILES.live}`;

/** What a running recording's reading takes from its live report. */
export type LiveReading = Pick<
  ProviderRecording,
  'bytes' | 'mediaSeconds' | 'content' | 'expectedSeconds' | 'coveredSeconds' | 'gaps' | 'reconnects' | 'measuredUntil'
>;

/**
 * What a live report tells of its recording at `now`: its progress, content and coverage (its gaps
 * measured until the report was written, so the stall alarm follows them as a local recorder's). One
 * its recorder has not refreshed for longer than `staleAfterMs` while the window is open tells nothing
 * current any more: its conditions are dropped (their alarms resolve: nobody knows whether the sound
 * is still off), and from the instant it was written (at the earliest the window's start) the
 * recording has a recorder_down gap, growing until the recorder reports again, which the stall alarm
 * tells once it passes 60 s.
 */
export function liveReadingAt(report: LiveReport, now: number, staleAfterMs: number): LiveReading {
  const coverage = report.coverage;
  const reading: LiveReading = {
    bytes: report.bytes,
    mediaSeconds: report.mediaSeconds,
    content: report.content,
    ...(coverage
      ? {
          expectedSeconds: coverage.expectedSeconds,
          coveredSeconds: coverage.coveredSeconds,
          gaps: coverage.gaps,
          reconnects: coverage.reconnects,
          measuredUntil: report.measuredUntil,
        }
      : {}),
  };
  const written = Date.parse(report.measuredUntil);
  const open =
    report.windowStart !== undefined &&
    report.windowEnd !== undefined &&
    now >= Date.parse(report.windowStart) &&
    now < Date.parse(report.windowEnd);
  if (!open || now - written <= staleAfterMs) return reading;
  const from = Math.max(written, Date.parse(report.windowStart ?? ''));
  const down = {
    start: new Date(from).toISOString(),
    end: new Date(now).toISOString(),
    cause: 'recorder_down' as const,
    reason: `The recorder stopped reporting: its last live report was written at ${report.measuredUntil.slice(11, 19)} UTC`,
    content_lost_seconds: contentLostSeconds('recorder_down', from, now),
  };
  return { ...reading, content: null, gaps: [...(coverage?.gaps ?? []), down], measuredUntil: down.end };
}

/** The store's conditional read (S3RecordingStore.readTextIfChanged). */
export type ReadIfChanged = (
  key: string,
  etag: string | null,
) => Promise<{ text: string; etag: string } | 'unchanged' | null>;

/** Where a live report that cannot be read or used is told: a logger's warn. */
export type LiveReportWarn = (detail: { key: string; reason: string }, message: string) => void;

interface Known {
  etag: string;
  /** The last report that could be used; null: none yet. */
  report: LiveReport | null;
  /** The object with `etag` could not be used (told once): `report` is the one before it. */
  malformed: boolean;
}

/**
 * The live reports of the running recordings: one GET per recording per pass, answered without a body
 * when the report has not changed since (its ETag). A missing report is normal (the recorder has not
 * shipped one yet); one that cannot be read or parsed is told once per reason, and the last good one
 * stands meanwhile, so an alarm is never resolved because a read failed. A report another launch wrote
 * (the machine this one replaced) is not this recording's yet.
 */
export class LiveReports {
  private readonly known = new Map<string, Known>();
  /** The problem last told per key: the same one is not told again every pass. */
  private readonly told = new Map<string, string>();

  constructor(
    private readonly read: ReadIfChanged,
    private readonly warn: LiveReportWarn,
    private readonly clock: Clock,
    /** A report older than this while its window is open: its recorder stopped reporting (liveReadingAt). */
    private readonly staleAfterMs: number,
  ) {}

  async reading(mediaKey: string, launchKey: string): Promise<LiveReading | undefined> {
    const key = liveReportKey(mediaKey);
    let known = this.known.get(key);
    /** The store answered, with this report (or that it did not change): its age is the recorder's silence. */
    let current = false;
    try {
      const answer = await this.read(key, known?.etag ?? null);
      if (answer === null) known = undefined;
      else if (answer !== 'unchanged') known = this.parsed(key, answer, known?.report ?? null);
      if (known) this.known.set(key, known);
      else this.known.delete(key);
      if (!known?.malformed) this.told.delete(key);
      current = known?.malformed === false;
    } catch (error) {
      this.tell(key, `could not read it: ${(error as Error).message}`);
    }
    const report = known?.report;
    if (!report || report.launchKey !== launchKey) return undefined;
    // A report that stands in for one the server could not read or use is not judged stale: the recorder
    // may be reporting, and an alarm is never resolved because a read failed.
    return liveReadingAt(report, this.clock.now().getTime(), current ? this.staleAfterMs : Infinity);
  }

  /** Forgets the reports of recordings no longer running (`running`: the media keys of those that are). */
  keepOnly(running: Set<string>): void {
    const keys = new Set([...running].map(liveReportKey));
    for (const key of this.known.keys()) if (!keys.has(key)) this.known.delete(key);
    for (const key of this.told.keys()) if (!keys.has(key)) this.told.delete(key);
  }

  /** The report the store answered, else (told) the last good one, noted as standing in for a malformed one. */
  private parsed(key: string, answer: { text: string; etag: string }, previous: LiveReport | null): Known {
    try {
      return { etag: answer.etag, report: parseLiveReport(answer.text), malformed: false };
    } catch (error) {
      this.tell(key, `it is not a recorder's live report: ${(error as Error).message}`);
      return { etag: answer.etag, report: previous, malformed: true };
    }
  }

  private tell(key: string, reason: string): void {
    if (this.told.get(key) === reason) return;
    this.told.set(key, reason);
    this.warn({ key, reason }, `the live report ${key} of a running cloud recording is unusable: ${reason}`);
  }
}
