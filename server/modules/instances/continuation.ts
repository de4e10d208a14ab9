import type { FastifyBaseLogger } from 'fastify';
import { failureMessage } from '../../capture/http-errors';
import type { Clock } from '../../lib/clock';
import type { RecordingsService } from '../recordings';
import { parseResumePoint, parseRuns, type Window } from '../recordings';
import { RELAUNCH_MARGIN_MS, type FleetRelaunch } from './relaunch';
import type { InstanceRow, InstancesRepository } from './repository';

/** A dead server's scope, as the server that takes its rows over tells it. */
export interface LostScope {
  scope: string;
  /** When that server was last heard from: what its rows show is known up to then. */
  lastSeen: number;
  /** Why its recordings have a hole (names the server and its machine); the gaps and outcomes say it. */
  reason: string;
}

/** What one pass did with a lost scope's rows. */
export interface Continued {
  continued: number;
  judged: number;
}

/**
 * The recordings of a server lost with its machine (no live server there can adopt its recorders,
 * whose files are there): each live row is taken by exactly one live server (the row moves to its
 * scope only if it is still the lost one's: an update that one server wins on any database). While
 * the row's window stays open beyond the relaunch margin, that server keeps what the recording showed
 * as a run, and starts a recorder of its own for the rest of the window (the fleet's relaunch,
 * `continues`): the recording is then the union of both runs. Where the lost recorder stopped is the
 * last segment it kept as its server last read it (the recording's resume point): the run ends there
 * and the new recorder goes on from the next segment the stream still lists, the hole between one
 * server_down gap of what left the playlist. Without a resume point (a stream that is not HLS) the run
 * ends at the lost server's last heartbeat, the time since a server_down gap, and the new recorder
 * starts at the live edge. A row whose window is over, or that could not be continued, is judged from
 * what is known, the hole to its window's end a server_down gap.
 */
export class LostScopeContinuation {
  constructor(
    private readonly deps: {
      repository: InstancesRepository;
      recordings: RecordingsService;
      relaunch: FleetRelaunch;
      clock: Clock;
      log: FastifyBaseLogger;
      /** This server's own scope, which the rows it takes move to. */
      ownScope: string;
    },
  ) {}

  async take(lost: LostScope): Promise<Continued> {
    const { repository, clock } = this.deps;
    const done: Continued = { continued: 0, judged: 0 };
    for (const live of await repository.listLive(lost.scope)) {
      const row = await repository.takeOver(live.id, lost.scope, this.deps.ownScope, clock.now().toISOString());
      if (!row) continue; // another server took it first
      if (await this.continueHere(row, lost)) done.continued++;
      else done.judged++;
    }
    return done;
  }

  /** True when a recorder of this server continues the row; false when the row was judged instead. */
  private async continueHere(row: InstanceRow, lost: LostScope): Promise<boolean> {
    const { recordings, clock, log } = this.deps;
    const now = clock.now().getTime();
    const window: Window | null =
      row.window_start && row.window_end
        ? { start: Date.parse(row.window_start), end: Date.parse(row.window_end) }
        : null;
    const recording = await recordings.findRowByInstance(row.id);
    const stopped = window && recording ? stoppedAt(recording, window, lost, now) : null;
    const knownUntil = stopped?.at ?? lost.lastSeen;
    let reason = lost.reason;
    if (
      window &&
      recording?.status === 'recording' &&
      row.state !== 'stopping' &&
      now < window.end - RELAUNCH_MARGIN_MS
    ) {
      // With a resume point the hole is the new recorder's to measure: it knows what left the playlist.
      await recordings.addLostRun(
        row.id,
        { knownUntil, until: stopped ? knownUntil : now, reason: lost.reason },
        window,
        row.job_id,
      );
      try {
        const count = parseRuns(recording.runs).length + 1;
        await this.deps.relaunch.startNext(
          row,
          recording.id,
          `continue:${count}`,
          `Continued on this server: ${lost.reason}`,
          { after: stopped?.sequence ?? null, since: new Date(knownUntil).toISOString(), reason: lost.reason },
        );
        log.warn({ instanceId: row.id, lostScope: lost.scope }, 'continued the recording of a lost server');
        return true;
      } catch (error) {
        log.warn({ err: error, instanceId: row.id }, 'continuing the recording of a lost server failed');
        reason = `${lost.reason}; it could not be continued on another server: ${failureMessage(error)}`;
      }
    }
    await this.judge(row, window, knownUntil, reason);
    return false;
  }

  /** Ends the row and judges its recording from what its runs showed; the rest of its window is a server_down gap. */
  private async judge(row: InstanceRow, window: Window | null, knownUntil: number, reason: string): Promise<void> {
    const { repository, recordings, clock } = this.deps;
    const now = clock.now().toISOString();
    await repository.update(row.id, { state: 'terminated', ended_at: now, state_reason: reason, updated_at: now });
    if (window) await recordings.addLostRun(row.id, { knownUntil, until: window.end, reason }, window, row.job_id);
    await recordings.markEnded(row.id, reason, window);
  }
}

/**
 * Where the lost recorder stopped: the last segment it kept, as its server last read it, when that lies
 * in its run (after the run before it was kept, not after now); null when the recording has none.
 */
function stoppedAt(
  recording: { resume_point: string | null; runs: string },
  window: Window,
  lost: LostScope,
  now: number,
): { sequence: number; at: number } | null {
  const point = parseResumePoint(recording.resume_point);
  if (!point) return null;
  const runFrom = Date.parse(parseRuns(recording.runs).at(-1)?.relaunchedAt ?? new Date(window.start).toISOString());
  const at = Date.parse(point.end);
  if (at < runFrom || at > Math.max(now, lost.lastSeen)) return null;
  return { sequence: point.sequence, at };
}
