import { countOf } from '../../../contract/plural';
import fs from 'node:fs';
import path from 'node:path';
import { piecesDirOf, readJson, writeJsonAtomic } from '../../../recorder/recorder-state';
import {
  INSTANCE_FILES,
  STATE_FORMAT_VERSION,
  type RecorderConfig,
  type RecorderState,
  type RelaunchRecord,
  type StopRequest,
} from '../../../recorder/protocol';
import { processAlive, signal } from './processes';

/*
 * What the local driver does about a recorder process found dead without an outcome. While its
 * window is open (and after, to join what it recorded) it is started again in the same folder, where
 * it carries on; a recorder that keeps dying is given up on with a written outcome.
 */

/** Relaunches of one instance before it is marked crashed instead. */
export const MAX_RELAUNCHES = 10;

/** The ffmpeg a killed recorder left behind: stopped, so two never write the same pieces. */
export function stopOrphanFfmpeg(config: RecorderConfig, state: RecorderState | undefined): void {
  const pid = state?.ffmpegPid;
  if (pid && processAlive(pid, piecesDirOf(config))) signal(pid, 'SIGKILL');
}

/**
 * Claims the relaunch after the death of recorder `pid`, for this process alone: servers sharing a
 * data folder (and a server adopting a dead one's) all see the death, and only one may start the
 * recorder again, or two would write the same pieces. False when another process claimed it first.
 */
export function claimRelaunch(dir: string, pid: number | undefined): boolean {
  try {
    fs.writeFileSync(path.join(dir, `relaunch-after-${pid ?? 'start'}.claim`), `${process.pid}\n`, { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}

export function relaunchCount(dir: string): number {
  return readJson<RelaunchRecord>(path.join(dir, INSTANCE_FILES.relaunches))?.count ?? 0;
}

/** Notes one more relaunch (the recorder reports the count) and says so in the instance's log. */
export function recordRelaunch(dir: string, pid: number | undefined, windowOpen: boolean): number {
  const count = relaunchCount(dir) + 1;
  const at = new Date().toISOString();
  writeJsonAtomic(path.join(dir, INSTANCE_FILES.relaunches), { count, lastAt: at } satisfies RelaunchRecord);
  const why = windowOpen ? 'its window is still open' : 'to join what it recorded';
  fs.appendFileSync(
    path.join(dir, INSTANCE_FILES.log),
    `${at} server: recorder process ${pid ?? '?'} died without finishing; starting it again (${why}, relaunch ${count})\n`,
  );
  return count;
}

/**
 * Writes the outcome of a recorder that is gone for good, so the mark survives restarts. A stop
 * request that killed it before it could handle the signal counts as that stop.
 */
export function markCrashed(
  dir: string,
  config: RecorderConfig,
  state: RecorderState | undefined,
  pid: number | undefined,
  stop: StopRequest | undefined,
): RecorderState {
  stopOrphanFfmpeg(config, state);
  const reason = stop
    ? stop.reason
    : state
      ? `Recorder process ${pid ?? '?'} ended without finishing its capture ${countOf(relaunchCount(dir), 'time')}; the pieces recorded are in its folder`
      : 'The recorder did not start; see its log';
  const now = new Date().toISOString();
  const crashed: RecorderState = {
    version: STATE_FORMAT_VERSION,
    instanceId: config.instanceId,
    recorderPid: pid ?? 0,
    ffmpegPid: null,
    phase: 'exited',
    startedAt: state?.startedAt ?? config.createdAt,
    firstMediaAt: state?.firstMediaAt ?? null,
    lastProgressAt: state?.lastProgressAt ?? null,
    endedAt: now,
    // No joined file: nothing to download.
    bytes: 0,
    mediaSeconds: state?.mediaSeconds ?? 0,
    stopCause: stop ? 'operator' : (state?.stopCause ?? null),
    runs: state?.runs ?? [],
    relaunches: relaunchCount(dir),
    coverage: state?.coverage ?? null,
    outcome: {
      status: (state?.mediaSeconds ?? 0) > 0 ? 'partial' : 'failed',
      reason,
      endedBy: stop ? 'operator' : 'crash',
      exitCode: null,
      signal: null,
    },
    updatedAt: now,
  };
  writeJsonAtomic(path.join(dir, INSTANCE_FILES.state), crashed);
  fs.appendFileSync(path.join(dir, INSTANCE_FILES.log), `${now} server: ${reason}\n`);
  return crashed;
}
