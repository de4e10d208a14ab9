import { countOf } from '../../../contract/plural';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import { outcomeFromCoverage } from '../../../recorder/recorder-coverage';
import { localFolderSink, PieceStore, probeSeconds } from '../../../recorder/recorder-pieces';
import type { Clock } from '../../lib/clock';
import type { RecordingStore } from '../../storage/recording-store';
import type { RecordingAlarms } from './alarms';
import { parseGaps, type RecordingsRepository, type RecordingToJoin } from './repository';
import { parseRuns, secondsWithinWindow } from './runs';
import { coverageOfSegments, groupSegments, type SegmentRun } from './segment-timeline';

/*
 * One playable file per recording, whatever the fleet relaunched. Each EC2 machine of a recording joins
 * only the pieces it recorded itself, and the last one's file is what the recording points at; the
 * earlier machines' pieces are in the bucket as segments. Once every run has ended, the server joins
 * all of them (in recording order, copying the streams, the recorder's own join) into that key,
 * rewrites metadata.json, and takes the recording's coverage and gaps from those segments. A recording
 * is marked joined only after all of that, so a server stopped half-way does it again; a failure
 * raises an alarm and is tried again on a later reconcile pass.
 */

/** Retries of a failing join wait from one pass up to this long (a 2 h recording is ~0.8 GB to fetch). */
const MAX_RETRY_DELAY_MS = 10 * 60_000;
const FIRST_RETRY_DELAY_MS = 10_000;

export interface StoreJoinOptions {
  repository: RecordingsRepository;
  store: RecordingStore;
  alarms?: RecordingAlarms;
  clock: Clock;
  log: FastifyBaseLogger;
  ffmpegPath: string;
  ffprobePath: string;
  /** Where the pieces are fetched and joined (one folder per recording, removed afterwards). */
  workDir: string;
  /** The recording of this instance changed (the live feed announces it, its job follows it). */
  onJoined?: (instanceId: string) => void;
}

export class StoreJoins {
  private running: Promise<void> | undefined;
  private readonly retries = new Map<string, { at: number; delayMs: number }>();

  constructor(private readonly options: StoreJoinOptions) {}

  /** Starts a pass over the recordings awaiting their join, unless one is running. */
  kick(): void {
    this.running ??= this.joinAll().finally(() => (this.running = undefined));
  }

  /** Resolves when no pass is running. */
  async idle(): Promise<void> {
    await this.running;
  }

  private async joinAll(): Promise<void> {
    const { repository, alarms, log, clock } = this.options;
    let rows: RecordingToJoin[];
    try {
      rows = await repository.awaitingStoreJoin();
    } catch (error) {
      log.warn({ err: error }, 'listing the recordings to join failed');
      return;
    }
    for (const row of rows) {
      const retry = this.retries.get(row.id);
      if (retry && clock.now().getTime() < retry.at) continue;
      try {
        const joined = await this.joinOne(row);
        this.retries.delete(row.id);
        await alarms?.storeJoined(joined);
        this.options.onJoined?.(row.instance_id);
      } catch (error) {
        const reason = (error as Error).message;
        const delayMs = Math.min(MAX_RETRY_DELAY_MS, retry ? retry.delayMs * 2 : FIRST_RETRY_DELAY_MS);
        this.retries.set(row.id, { at: clock.now().getTime() + delayMs, delayMs });
        log.warn({ err: error, recordingId: row.id }, 'joining the segments of a relaunched recording failed');
        await alarms
          ?.storeJoinFailed(row, reason)
          .catch((err: unknown) => log.warn({ err }, 'raising the join alarm failed'));
      }
    }
  }

  /** Joins one recording; the recording it made (its outcome and figures). */
  private async joinOne(row: RecordingToJoin): Promise<RecordingToJoin> {
    const { store, repository, clock } = this.options;
    const mediaKey = row.file_path as string;
    const prefix = mediaKey.slice(0, mediaKey.lastIndexOf('/') + 1);
    const now = clock.now();
    const listing = await store.list(`${prefix}segments/`);
    const runs = groupSegments(
      listing.map((o) => ({ key: o.key, seconds: 0, arrivedAt: Date.parse(o.modifiedAt ?? '') || now.getTime() })),
    );
    const dir = path.join(this.options.workDir, row.id);
    fs.rmSync(dir, { recursive: true, force: true }); // what a stopped server left
    fs.mkdirSync(dir, { recursive: true });
    try {
      const pieces = await this.fetchAndMeasure(runs, dir);
      if (pieces.measured().length === 0) {
        // No media reached the store from any run: nothing to join, the recording stays as judged.
        await repository.update(row.id, { store_joined_at: now.toISOString() });
        return row;
      }
      const output = path.join(dir, 'joined.mp4');
      const failed = await pieces.join(this.options.ffmpegPath, output);
      if (failed) throw new Error(failed);
      const mediaSeconds = await probeSeconds(this.options.ffprobePath, output);
      if (mediaSeconds === null) throw new Error('the joined file holds no media ffprobe can read');
      const bytes = fs.statSync(output).size;
      await store.putFile(mediaKey, output, 'video/mp4');

      const window = windowOf(row);
      const coverage = coverageOfSegments(runs, window, parseGaps(row.gaps));
      const outcome = outcomeFromCoverage(coverage, null, null);
      const relaunches = parseRuns(row.runs).length;
      // A reason the coverage wrote is written again; one an operator's stop gave is kept.
      const reason =
        outcome.status === 'captured'
          ? null
          : outcome.status !== row.status || !row.reason || row.reason.startsWith('Recorded ')
            ? `${outcome.reason} (the recorder was relaunched ${countOf(relaunches, 'time')})`
            : row.reason;
      await this.writeMetadata(row, prefix, {
        outcome: { status: outcome.status, reason },
        coverage,
        media: { name: mediaKey.slice(prefix.length), bytes },
        segments: runs.flatMap((run) =>
          run.segments
            .filter((s) => s.seconds > 0)
            .map((s) => ({ name: s.key.slice(prefix.length), seconds: s.seconds })),
        ),
        joinedAt: now.toISOString(),
      });
      await repository.update(row.id, {
        status: outcome.status,
        reason,
        bytes,
        duration_seconds: secondsWithinWindow(Math.round(mediaSeconds * 1000) / 1000, coverage.expectedSeconds),
        expected_seconds: coverage.expectedSeconds,
        covered_seconds: coverage.coveredSeconds,
        gaps: JSON.stringify(coverage.gaps),
        store_joined_at: now.toISOString(),
        updated_at: now.toISOString(),
      });
      return {
        ...row,
        status: outcome.status,
        reason,
        expected_seconds: coverage.expectedSeconds,
        covered_seconds: coverage.coveredSeconds,
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  /**
   * Fetches every segment, named so the recorder's piece store orders them (run N is the N-th run in
   * recording order), measures them (from their timestamps: no process per segment) and notes each one's
   * seconds on its segment.
   */
  private async fetchAndMeasure(runs: SegmentRun[], dir: string): Promise<PieceStore> {
    const byName = new Map<string, SegmentRun['segments'][number]>();
    for (const [index, run] of runs.entries()) {
      for (const [number, segment] of run.segments.entries()) {
        const name = `run-${String(index + 1).padStart(4, '0')}-${String(number).padStart(5, '0')}.ts`;
        await pipeline(await this.options.store.read(segment.key), fs.createWriteStream(path.join(dir, name)));
        byName.set(name, segment);
      }
    }
    const pieces = new PieceStore(dir, localFolderSink);
    pieces.measureAll();
    for (const { name, seconds } of pieces.measured()) {
      const segment = byName.get(name);
      if (segment) segment.seconds = seconds;
    }
    return pieces;
  }

  /** The last machine's metadata.json, with what the server's join found. */
  private async writeMetadata(row: RecordingToJoin, prefix: string, found: Record<string, unknown>): Promise<void> {
    const key = `${prefix}metadata.json`;
    let earlier: Record<string, unknown> = {};
    if (await this.options.store.stat(key)) {
      const chunks: Buffer[] = [];
      for await (const chunk of await this.options.store.read(key)) chunks.push(Buffer.from(chunk as Uint8Array));
      try {
        earlier = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        // unreadable: rewritten whole below
      }
    }
    const metadata = {
      recordingId: row.id,
      instanceId: row.instance_id,
      mosqueId: row.mosque_id,
      windowStart: row.window_start,
      windowEnd: row.window_end,
      ...earlier,
      ...found,
      joinedBy: 'server',
    };
    await this.options.store.putText(key, `${JSON.stringify(metadata, null, 2)}\n`, 'application/json');
  }
}

function windowOf(row: RecordingToJoin): { start: number; end: number } {
  const start = Date.parse(row.window_start ?? row.started_at);
  const end = Date.parse(row.window_end ?? row.ended_at ?? row.updated_at);
  return { start, end: Math.max(start, end) };
}
