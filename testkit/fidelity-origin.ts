import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock } from '../server/lib/clock';
import { BroadcastSchedule, type OriginFault } from './fidelity-schedule';
import { FRAME_CODE, numberedStream, type NumberedContentFault } from './numbered-stream';

export type { OriginFault } from './fidelity-schedule';

/**
 * A live HLS origin on 127.0.0.1 for the fidelity lab: it publishes the numbered programme
 * (testkit/numbered-stream.ts) on its clock as a live encoder would, with scripted faults, and keeps
 * the truth of what it offered, so that a recording read back into frame indices
 * (testkit/frame-decoder.ts) can be told what it lost and what the fault alone made unavailable.
 */
export interface FidelityOriginOptions {
  /** Length of the programme; the playlist ends (EXT-X-ENDLIST) when it has all been published. */
  minutes: number;
  /** Entries of a sliding playlist (6 by default; 60 is a DVR window of 120 s). */
  dvrSegments?: number;
  /** `event`: an EVENT playlist listing every segment of the run. */
  playlistType?: 'sliding' | 'event';
  programDateTime?: boolean;
  /** Segments already published when the origin starts: its start lies that far in the past. */
  prePublishSegments?: number;
  faults?: OriginFault[];
  /** A content fault of the programme itself (its sound muted, its picture frozen, no sound track). */
  content?: NumberedContentFault;
  clock?: Clock;
}

export interface FrameRange {
  first: number;
  last: number;
}

export interface SegmentTruth {
  /** Position in the programme. */
  index: number;
  run: number;
  sequence: number;
  firstFrame: number;
  lastFrame: number;
  durationSeconds: number;
  /** Epoch ms. */
  publishedAt: number;
  /** Epoch ms it left the playlist; null while listed. */
  expiredAt: number | null;
  /** A client could fetch it: it was listed while a playlist could be had. */
  offered: boolean;
}

export interface FaultTruth {
  fault: OriginFault;
  /** Epoch ms of the fault's interval. */
  from: number;
  to: number;
  /** Frames published that no client could have fetched because of this fault. */
  unavailable: FrameRange[];
  unavailableSeconds: number;
}

export interface OriginTruth {
  /** Epoch ms of the broadcast's start (faults are timed from it). */
  startedAt: number;
  /** The segments published so far. */
  segments: SegmentTruth[];
  faults: FaultTruth[];
}

/** What a recording of the window [from, to) (epoch ms) should hold: the frames broadcast then, minus those never offered. */
export interface WindowTruth {
  from: number;
  to: number;
  frames: FrameRange | null;
  unavailable: FrameRange[];
  /** Epoch ms at which a frame was on the air. */
  broadcastAt(frame: number): number;
}

export interface RequestCounts {
  playlist: number;
  segments: number;
  byStatus: Record<number, number>;
  /** Requests held open by a held_open fault. */
  held: number;
  /** Fetches of each programme segment that were answered 200. */
  segmentFetches: Map<number, number>;
}

export interface FidelityOrigin {
  url: string;
  truth(): OriginTruth;
  window(from: number, to: number): WindowTruth;
  /** The frames a client could fetch at an instant (epoch ms, not after now): those of the segments listed then; null in a blackout. */
  offeredAt(instant: number): FrameRange | null;
  /** Seconds since the broadcast's start, on the origin's clock. */
  secondsSinceStart(): number;
  requests: RequestCounts;
  close(): Promise<void>;
}

const PLAYLIST = '/live.m3u8';
const SEGMENT = /^\/seg(\d+)\.ts$/;

export async function startFidelityOrigin(options: FidelityOriginOptions): Promise<FidelityOrigin> {
  const clock = options.clock ?? systemClock;
  const stream = numberedStream(options.minutes, options.content);
  const dvrSegments = options.dvrSegments ?? 6;
  const schedule = new BroadcastSchedule(
    stream.segments,
    options.faults ?? [],
    dvrSegments,
    options.playlistType ?? 'sliding',
  );
  const prePublished = options.prePublishSegments ?? 0;
  const startedAt = clock.now().getTime() - (prePublished > 0 ? schedule.publishedAt[prePublished - 1] * 1000 : 0);
  const secondsSinceStart = () => (clock.now().getTime() - startedAt) / 1000;
  const epoch = (seconds: number) => startedAt + seconds * 1000;
  const requests: RequestCounts = { playlist: 0, segments: 0, byStatus: {}, held: 0, segmentFetches: new Map() };
  const holds = new Set<{ release: () => void }>();

  /** Epoch ms a frame starts to be shown: after an encoder's pause that began right before it. */
  const broadcastAt = (frame: number) => epoch(schedule.wallAtMedia(frame / FRAME_CODE.fps, true));

  const playlist = (t: number): string => {
    const listed = schedule.shown(t);
    const first = listed[0];
    const firstOfRunListed = schedule.runOf[first] > 0 && schedule.sequenceOf(first) === 0;
    const lines = [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      `#EXT-X-TARGETDURATION:${Math.ceil(Math.max(...listed.map((k) => stream.segments[k].durationSeconds)))}`,
      ...(options.playlistType === 'event' ? ['#EXT-X-PLAYLIST-TYPE:EVENT'] : []),
      `#EXT-X-MEDIA-SEQUENCE:${schedule.sequenceOf(first)}`,
      // Discontinuities before the first listed segment; the tag on a new run's first segment is its own.
      `#EXT-X-DISCONTINUITY-SEQUENCE:${schedule.runOf[first] - (firstOfRunListed ? 1 : 0)}`,
    ];
    for (const k of listed) {
      const segment = stream.segments[k];
      if (schedule.runOf[k] > 0 && schedule.sequenceOf(k) === 0) lines.push('#EXT-X-DISCONTINUITY');
      if (options.programDateTime)
        lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(broadcastAt(segment.firstFrame)).toISOString()}`);
      lines.push(`#EXTINF:${segment.durationSeconds.toFixed(6)},`, `seg${schedule.sequenceOf(k)}.ts`);
    }
    if (schedule.ended(t) && listed.at(-1) === stream.segments.length - 1) lines.push('#EXT-X-ENDLIST');
    return `${lines.join('\n')}\n`;
  };

  const answer = (path: string, response: http.ServerResponse) => {
    const t = secondsSinceStart();
    const send = (status: number, type: string, body: string | Buffer, segment?: number) => {
      requests.byStatus[status] = (requests.byStatus[status] ?? 0) + 1;
      if (segment !== undefined && status === 200)
        requests.segmentFetches.set(segment, (requests.segmentFetches.get(segment) ?? 0) + 1);
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-cache' }).end(body);
    };
    const notFound = () => send(404, 'text/plain', 'not found');
    if (schedule.active('late_start', t)) return notFound();
    if (path === PLAYLIST) {
      requests.playlist++;
      if (schedule.active('playlist_404', t) || schedule.publishedCount(t) === 0) return notFound();
      return send(200, 'application/vnd.apple.mpegurl', playlist(t));
    }
    const match = SEGMENT.exec(path);
    if (!match) return notFound();
    requests.segments++;
    const k = schedule.segmentAt(t, Number(match[1]));
    if (k === undefined) return notFound();
    if (schedule.active('segment_expiry', t) && !schedule.shown(t).includes(k)) return notFound();
    send(200, 'video/mp2t', fs.readFileSync(stream.segments[k].file), k);
  };

  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const heldUntil = schedule.heldUntil(secondsSinceStart());
    if (heldUntil === undefined) return answer(path, response);
    // Not a byte (not even the headers) until the interval ends, then the answer of that moment.
    requests.held++;
    const timer = clock.timer();
    const hold = {
      release: () => {
        holds.delete(hold);
        timer.disarm();
        if (!response.destroyed) answer(path, response);
      },
    };
    holds.add(hold);
    timer.arm(epoch(heldUntil) - clock.now().getTime(), hold.release);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const segmentTruth = (k: number, now: number): SegmentTruth => {
    const segment = stream.segments[k];
    const expired = schedule.expiredAt(k);
    return {
      index: k,
      run: schedule.runOf[k],
      sequence: schedule.sequenceOf(k),
      firstFrame: segment.firstFrame,
      lastFrame: segment.lastFrame,
      durationSeconds: segment.durationSeconds,
      publishedAt: epoch(schedule.publishedAt[k]),
      expiredAt: expired !== undefined && expired <= now ? epoch(expired) : null,
      offered: schedule.offered(k, now),
    };
  };

  const truth = (): OriginTruth => {
    const now = secondsSinceStart();
    const segments = Array.from({ length: schedule.publishedCount(now) }, (_, k) => segmentTruth(k, now));
    const lost = segments.filter((s) => !s.offered);
    return {
      startedAt,
      segments,
      faults: schedule.faults.map((fault) => {
        const interval = schedule.faultInterval(fault);
        const unavailable = mergeRanges(
          lost
            .filter((s) => listedDuring(s, epoch(interval.from), epoch(interval.to)))
            .map((s) => ({ first: s.firstFrame, last: s.lastFrame })),
        );
        return {
          fault,
          from: epoch(interval.from),
          to: epoch(interval.to),
          unavailable,
          unavailableSeconds: framesIn(unavailable) / FRAME_CODE.fps,
        };
      }),
    };
  };

  return {
    url: `http://127.0.0.1:${port}${PLAYLIST}`,
    truth,
    window: (from, to) => {
      const published = truth().segments;
      const frames = published.flatMap((s) =>
        Array.from({ length: s.lastFrame - s.firstFrame + 1 }, (_, i) => s.firstFrame + i),
      );
      const inWindow = frames.filter((f) => broadcastAt(f) >= from && broadcastAt(f) < to);
      const range = inWindow.length > 0 ? { first: inWindow[0], last: inWindow[inWindow.length - 1] } : null;
      const unavailable = range
        ? clip(
            mergeRanges(published.filter((s) => !s.offered).map((s) => ({ first: s.firstFrame, last: s.lastFrame }))),
            range,
          )
        : [];
      return { from, to, frames: range, unavailable, broadcastAt };
    },
    offeredAt: (instant) => {
      const offered = schedule.offeredAt((instant - startedAt) / 1000);
      return offered.length > 0
        ? {
            first: stream.segments[offered[0]].firstFrame,
            last: stream.segments[offered[offered.length - 1]].lastFrame,
          }
        : null;
    },
    secondsSinceStart,
    requests,
    close: async () => {
      for (const hold of holds) hold.release();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A segment was in the playlist at some instant of [from, to) (epoch ms). */
function listedDuring(segment: SegmentTruth, from: number, to: number): boolean {
  return segment.publishedAt < to && (segment.expiredAt ?? Infinity) > from;
}

export function mergeRanges(ranges: FrameRange[]): FrameRange[] {
  const merged: FrameRange[] = [];
  for (const range of [...ranges].sort((a, b) => a.first - b.first)) {
    const last = merged.at(-1);
    if (last && range.first <= last.last + 1) last.last = Math.max(last.last, range.last);
    else merged.push({ ...range });
  }
  return merged;
}

/**
 * A stretch shorter than this without a kept frame is a frame's jitter, not a hole: the read-back
 * (frame-decoder.ts) sees no shorter hole, so the season cannot judge a shorter gap against one.
 */
export const HOLE_MIN_MS = 1000;

export const framesIn = (ranges: FrameRange[]) => ranges.reduce((sum, r) => sum + r.last - r.first + 1, 0);

/** The parts of `ranges` inside `to`. */
export function clip(ranges: FrameRange[], to: FrameRange): FrameRange[] {
  return ranges
    .map((r) => ({ first: Math.max(r.first, to.first), last: Math.min(r.last, to.last) }))
    .filter((r) => r.first <= r.last);
}
