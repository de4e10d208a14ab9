/*
 * The recorder: one detached process per instance that records one stream for its whole window and
 * reports through the files of its instance folder (see protocol.ts). It outlives the server
 * that started it, and a server that finds it dead inside its window starts it again in the same
 * folder: it then carries on from the runs its predecessor recorded.
 *
 *   node --import tsx recorder.ts <instance folder>
 *
 * Until the window closes it keeps trying: a stream that is not live yet is tried again with back-off,
 * and after an end of stream, an HTTP error, a refused connection or a stall it reconnects. Each ffmpeg
 * run writes short pieces; at window end they are joined, without re-encoding, into one file, and the
 * outcome comes from what the media covers of the window. SIGTERM (the server's terminate) ends the
 * current run cleanly and joins what there is. It is part of the runtime an image freezes, so it
 * imports only Node and its siblings.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loudnessFileOf } from './content-filters';
import { ContentMeter } from './content-meter';
import { createEgressPin, GUARDED } from './egress-guard';
import { startEgressProxy, type EgressProxy } from './egress-proxy';
import { buildFfmpegArgs, inputOptions } from './ffmpeg-args';
import { ledgerCoverage, SegmentLedger, type HeldMedia } from './hls-ledger';
import { readHls } from './hls-reader';
import { startAttempt, STORAGE_FAILURE, type Attempt } from './recorder-attempt';
import { computeCoverage, describeRunEnd, outcomeFromCoverage, placeRunMedia } from './recorder-coverage';
import { StoreShipper } from './recorder-delivery';
import {
  deliverJoinedFile,
  deliverMetadata,
  FINAL_DELIVERY_MS,
  keepContent,
  releaseLocalCopy,
} from './recorder-handover';
import { LiveReporter } from './recorder-live';
import { localFolderSink, PieceStore } from './recorder-pieces';
import {
  claimFolder,
  INSTANCE_FILES,
  piecesDirOf,
  readJson,
  STATE_FORMAT_VERSION,
  withoutCredentials,
  writeJsonAtomic,
  writePidFile,
  type RecorderConfig,
  type RecorderState,
  type RelaunchRecord,
  type RunRecord,
  type StopCause,
  type StopRequest,
} from './recorder-state';
import { alarmSignature, DEFAULT_CONTENT_ALARM_SECONDS } from './protocol';
import { FedRuns, recoverCutRun } from './recorder-hls';
import { closeAbandonedRun, localWindow, Pause, RetryPlan } from './recorder-window';
import { runQueueWaitMs } from './run-queue-wait';
import { fitsRecording, probeStreams } from './source-fit';
import { isDirectMediaUrl, isHlsUrl, resolveStreamUrl, type ResolvedStream } from './stream-url';

const dir = path.resolve(process.argv[2] ?? '.');
const configOrNothing = readJson<RecorderConfig>(path.join(dir, INSTANCE_FILES.config));
if (!configOrNothing) {
  process.stderr.write(`recorder: no readable ${INSTANCE_FILES.config} in ${dir}\n`);
  process.exit(2);
}
const config: RecorderConfig = configOrNothing;
// One recorder per folder: one started on a folder another live recorder holds goes away at once, and
// the pid file (which the server that started this one wrote) names the one that records.
const holder = claimFolder(dir);
if (holder !== null) {
  fs.appendFileSync(
    config.logPath,
    `${new Date().toISOString()} recorder: recorder ${holder} is recording this folder; this one (${process.pid}) does not start\n`,
  );
  writePidFile(dir, holder);
  process.exit(3);
}
const settings = config.settings;
const statePath = path.join(dir, INSTANCE_FILES.state);
const window = localWindow(config);
const toServerIso = (ms: number) => new Date(ms + window.offsetMs).toISOString();

const logStream = fs.createWriteStream(config.logPath, { flags: 'a' });
const log = (source: 'recorder' | 'ffmpeg', line: string) =>
  logStream.write(`${new Date().toISOString()} ${source}: ${withoutCredentials(line)}\n`);

const previous = readJson<RecorderState>(statePath);
if (previous?.outcome) {
  fs.appendFileSync(
    config.logPath,
    `${new Date().toISOString()} recorder: this capture is already finished; nothing to do\n`,
  );
  process.exit(0);
}
const now = () => new Date().toISOString();
const runs: RunRecord[] = previous?.runs ?? [];
// With a delivery, each closed piece goes to the object store at once: a dead machine loses only the piece in progress.
const shipper = config.delivery
  ? new StoreShipper(
      config.delivery,
      (line) => log('recorder', line),
      config.clockOffsetMs,
      path.join(dir, INSTANCE_FILES.delivered),
      config.createdAt,
    )
  : null;
const pieces = new PieceStore(piecesDirOf(config), shipper ?? localFolderSink);
const alarmSeconds = config.contentAlarmSeconds ?? DEFAULT_CONTENT_ALARM_SECONDS;
const live =
  shipper && config.liveReport
    ? new LiveReporter(
        shipper,
        path.join(dir, INSTANCE_FILES.live),
        config.liveReport,
        alarmSeconds,
        config.idempotencyKey,
        { windowStart: config.windowStart, windowEnd: config.windowEnd },
        (line) => log('recorder', line),
      )
    : null;
const state: RecorderState = {
  version: STATE_FORMAT_VERSION,
  instanceId: config.instanceId,
  recorderPid: process.pid,
  ffmpegPid: null,
  phase: previous?.firstMediaAt ? 'running' : 'pending',
  startedAt: previous?.startedAt ?? now(),
  firstMediaAt: previous?.firstMediaAt ?? null,
  lastProgressAt: previous?.lastProgressAt ?? null,
  endedAt: null,
  bytes: previous?.bytes ?? 0,
  mediaSeconds: previous?.mediaSeconds ?? 0,
  stopCause: null,
  runs,
  relaunches: readJson<RelaunchRecord>(path.join(dir, INSTANCE_FILES.relaunches))?.count ?? 0,
  coverage: previous?.coverage ?? null,
  outcome: null,
  updatedAt: now(),
};
// Every connection goes through the egress guard: the HLS reader's own, and ffmpeg's and yt-dlp's through the proxy.
const egress = config.egress ?? GUARDED;
const pin = createEgressPin(egress);
/** What the guard refused during the current ffmpeg run (null: nothing). */
let refusedInRun: string | null = null;
const proxyStarted: Promise<EgressProxy | null> = egress.allowPrivate
  ? Promise.resolve(null)
  : startEgressProxy(pin, (reason) => {
      if (refusedInRun !== reason) log('recorder', `egress guard refused a connection: ${reason}`);
      refusedInRun = reason;
    });
/** ffmpeg's environment: its HTTP and TLS connections go through the egress proxy (ffmpeg reads http_proxy for both). */
function ffmpegEnvironment(proxy: EgressProxy | null): NodeJS.ProcessEnv | undefined {
  if (!proxy) return undefined;
  const env: NodeJS.ProcessEnv = { ...process.env, http_proxy: proxy.url };
  delete env.no_proxy;
  delete env.NO_PROXY;
  return env;
}
const ledgerPath = path.join(dir, INSTANCE_FILES.ledger);
// An HLS capture keeps a ledger of its segments: its coverage is placed on the stream's own time line.
let hlsCapture = fs.existsSync(ledgerPath);
const ledger = new SegmentLedger(ledgerPath);
// A machine launched to replace a dead one starts from the ledger its predecessor shipped (see user-data.ts).
shipper?.shareAfterPieces(ledgerPath, INSTANCE_FILES.ledger);
const open = runs.at(-1);
if (open && !open.endedAt) closeAbandonedRun(open, new Date());
// What each run records is measured by the same ffmpeg; an HLS run's media starts where the ledger placed its first segment.
const content = new ContentMeter({
  file: path.join(dir, INSTANCE_FILES.content),
  windowStart: window.start,
  loudnessFileOf: (run) => loudnessFileOf(pieces.outputFor(run).listPath),
  anchorOf: (run) => (hlsCapture ? (ledger.kept.find((segment) => segment.run === run)?.start ?? null) : null),
  toServerIso,
  log: (line) => log('recorder', line),
  previous: previous?.content,
});

/** What the media covers of the window up to `until`; at the end, measured from the pieces. */
function coverageUntil(until: number, measured: boolean) {
  if (hlsCapture) return ledgerCoverage(ledger, window, until, toServerIso, measured ? heldByCutRun : undefined);
  return computeCoverage(
    window.start,
    window.end,
    runs.map((run) => ({ run, seconds: measured ? pieces.secondsOf(run.index) : run.mediaSeconds })),
    toServerIso,
    until,
  );
}

/**
 * What the pieces of a fed run hold, for a run that may hold less than was fed to it: one cut short (a
 * crash, ffmpeg's error) or with pieces that did not reach the store, and why. A run that ended cleanly
 * holds all its segments (ffmpeg read its input to the end), and the pieces' times, which round each
 * piece down by up to a frame, would only make it look shorter.
 */
function heldByCutRun(index: number): HeldMedia | null {
  const run = runs.find((r) => r.index === index);
  const delivered = pieces.allCount(index);
  if (run && !run.error && delivered) return null;
  const seconds = pieces.secondsOf(index);
  if (!run) return { seconds, cause: 'recorder_down', reason: 'Recorded by the machine this one replaced' };
  if (!delivered)
    return {
      seconds,
      cause: 'store_unreachable',
      reason: `Pieces of run ${index} did not reach the store${shipper?.report().lastError ? ` (${shipper.report().lastError})` : ''}`,
    };
  return { seconds, cause: 'recorder_down', reason: `The recording of run ${index} ended short (${run.error})` };
}

/**
 * The state is written at once when the phase, the runs, ffmpeg or a content condition (silent,
 * frozen…) change, or a condition reaches its alarm threshold, else at most every 5 s: the console
 * sees progress and an open hole grow at that pace. An HLS capture's ledger appends its changes at
 * each call and notes the recorder alive every 5 s, so a recorder that dies is known alive 5 s
 * before at worst. Writing both whole once a second was most of a copying recorder's own CPU.
 */
const SAVE_EVERY_MS = 5000;
/**
 * Between writes, the content's conditions are looked at this often: one that starts, ends or reaches
 * the server's alarm threshold writes the state at once, so its alarm is raised or resolved (and its
 * start known) within a second, not five.
 */
const CONTENT_CHECK_EVERY_MS = 1000;
let lastSaveMono = -Infinity;
let lastContentCheckMono = -Infinity;
/** Whether a content condition started, ended or reached its alarm threshold since the state was last written. */
function contentConditionsChanged(mono: number): boolean {
  if (state.outcome || mono - lastContentCheckMono < CONTENT_CHECK_EVERY_MS) return false;
  lastContentCheckMono = mono;
  return alarmSignature(content.report(), alarmSeconds) !== alarmSignature(state.content, alarmSeconds);
}
function save(force = false): void {
  if (hlsCapture && !state.outcome) saveLedger(SAVE_EVERY_MS);
  const mono = performance.now();
  if (!force && mono - lastSaveMono < SAVE_EVERY_MS && !contentConditionsChanged(mono)) return;
  lastSaveMono = mono;
  if (!state.outcome) {
    const current = runs.at(-1);
    if (current && !current.endedAt) pieces.collectClosed(current.index);
    // While recording: ffmpeg's progress for each run, or the segment ledger (the pieces' times are the final word at the end).
    state.coverage = coverageUntil(Math.min(Date.now(), window.end), false);
    if (hlsCapture) {
      // Where a recorder on another host goes on should this one's server be lost (its server keeps it).
      const point = ledger.resumePoint();
      state.resumePoint = point && { sequence: point.sequence, end: toServerIso(point.end) };
    }
    state.mediaSeconds = state.coverage.coveredSeconds;
    state.bytes = pieces.bytes();
    state.content = content.report();
  }
  if (shipper) state.delivery = shipper.report();
  state.updatedAt = now();
  try {
    writeJsonAtomic(statePath, state);
  } catch (error) {
    log('recorder', `could not write state: ${(error as Error).message}`);
  }
  if (!state.outcome) live?.offer(state, toServerIso(Date.now()));
}

let current: Attempt | null = null;
const pause = new Pause();
/** When a stop was asked for (ms). */
let stoppedAt = Infinity;
function stop(cause: StopCause): void {
  if (state.stopCause) return;
  state.stopCause = cause;
  // The window's timer may fire a millisecond before its end (Node counts whole milliseconds of a clock
  // read at each turn of its loop): a stop for the window is at its end, or the last gap ended short of it.
  stoppedAt = cause === 'window' ? Math.max(Date.now(), window.end) : Date.now();
  if (cause !== 'window') state.phase = 'stopping';
  save(true);
  current?.stop();
  pause.interrupt();
}
process.on('SIGTERM', () => stop('operator'));
process.on('SIGINT', () => stop('operator'));
process.on('SIGHUP', () => undefined);

/** A stream on a protocol the egress proxy cannot see (rtmp, rtsp, srt) is refused while the guard is on. */
function unguardable(
  resolved: ResolvedStream,
  proxy: EgressProxy | null,
): ResolvedStream | { ok: false; error: string; refused: true } {
  if (!resolved.ok || !proxy || /^https?:/i.test(resolved.url)) return resolved;
  const scheme = resolved.url.slice(0, resolved.url.indexOf(':'));
  return {
    ok: false,
    refused: true,
    error: `Stream refused (${scheme} cannot pass the egress guard, which sees http and https only; ALLOW_PRIVATE_STREAM_HOSTS=1 lets it through unchecked)`,
  };
}

/**
 * The URL once answered with media (or names it): it is the stream itself, and later connections go
 * straight to it. Off the air, a radio mount answers an error, not a page: asked again what it is, it
 * would be taken for a page for yt-dlp, and its drop reported as yt-dlp's failure.
 */
let answeredMedia = false;

/** Whether the runs ffmpeg reads itself copy the source: as configured, else probed at the first connection that answers. */
let copyNetwork: boolean | null = config.sourceAsIs ? true : null;
/** The stream has no picture (a radio stream), as the probe found. */
let audioOnly = false;

/**
 * Probes the stream once it answers: copied when it fits (so a run never falls behind its source, and
 * a radio stream's audio is kept as it is), else transcoded. A probe that cannot read the stream
 * decides nothing: the run transcodes, and the next connection probes again.
 */
async function decideCopy(url: string, env: NodeJS.ProcessEnv | undefined, run: RunRecord): Promise<boolean> {
  if (copyNetwork !== null) return copyNetwork;
  const streams = await probeStreams(config, { url, inputOptions: inputOptions(url, !egress.allowPrivate), env });
  if (streams === null) return false;
  run.onAirAt ??= now();
  copyNetwork = fitsRecording(streams, config);
  audioOnly = streams.length > 0 && streams.every((s) => s.codec_type !== 'video');
  const kinds = streams.map((s) => `${s.codec_type} ${s.codec_name}${s.width ? ` ${s.width}x${s.height}` : ''}`);
  log(
    'recorder',
    `the stream holds ${kinds.join(', ') || 'no stream'}: ${copyNetwork ? 'recording it as it is' : 'transcoding it'}`,
  );
  return copyNetwork;
}

/** One connection to the stream: resolve it, run ffmpeg until it ends, note why it ended. */
async function connect(run: RunRecord, everMedia: boolean): Promise<void> {
  const unwritable = pieces.prepare();
  if (unwritable) {
    log('recorder', unwritable);
    run.error = run.endReason = unwritable;
    run.endCause = 'store_unreachable';
    if (STORAGE_FAILURE.test(unwritable)) stop('storage');
    return;
  }
  const proxy = await proxyStarted;
  refusedInRun = null;
  const resolved = unguardable(
    answeredMedia
      ? { ok: true, url: config.url, via: 'direct' }
      : await resolveStreamUrl(config.url, { ytDlpPath: config.ytDlpPath, proxy: proxy?.url, pin }),
    proxy,
  );
  if (resolved.ok && resolved.via === 'direct') answeredMedia = true;
  // On the air by now, whatever our probe and ffmpeg then take on a busy machine (recorder-coverage.ts).
  if (resolved.ok && resolved.answeredMedia) run.onAirAt = now();
  if (!resolved.ok) {
    log('recorder', resolved.error);
    run.error = resolved.error;
    run.endReason = resolved.error;
    run.endCause = 'refused' in resolved ? 'stream_refused' : everMedia ? 'stream_dropped' : 'not_live_yet';
    return;
  }
  // Stopped, or the window closed, while yt-dlp was resolving: nothing to connect to any more.
  if (state.stopCause || Date.now() >= window.end) return;
  if (resolved.via === 'yt-dlp') log('recorder', `stream page resolved by yt-dlp to ${resolved.url.slice(0, 200)}`);
  const env = ffmpegEnvironment(proxy);
  const copy = await decideCopy(resolved.url, env, run);
  if (state.stopCause || Date.now() >= window.end) return;
  current = startAttempt({
    ffmpegPath: config.ffmpegPath,
    args: buildFfmpegArgs({ ...config, sourceAsIs: copy }, resolved.url, pieces.outputFor(run.index), audioOnly),
    env,
    measure: (line) => content.line(run.index, line),
    stallMs: settings.stallTimeoutSeconds * 1000,
    stopGraceMs: settings.stopGraceSeconds * 1000,
    log,
    onStart: (pid) => {
      state.ffmpegPid = pid;
      save(true);
    },
    onProgress: (seconds, bytes) => {
      // ffmpeg reads and reports, the recorder relays (its egress proxy) and reads the report: a wait for
      // a CPU in either made the report late without the stream being late.
      const waited = runQueueWaitMs(state.ffmpegPid) + runQueueWaitMs(process.pid);
      placeRunMedia(run, run.mediaSeconds, seconds, Date.now(), copy, waited);
      run.mediaSeconds = seconds;
      run.bytes = bytes;
      run.lastMediaAt = state.lastProgressAt = now();
      if (!run.firstMediaAt) {
        // Media recorded one way is recorded that way to the end: pieces of a copy and of a transcode would not join.
        copyNetwork ??= copy;
        run.firstMediaAt = run.lastMediaAt;
        state.firstMediaAt ??= run.firstMediaAt;
        if (state.phase === 'pending') state.phase = 'running';
        log('recorder', runs.length > 1 ? `media is flowing again (connection ${run.index})` : 'media is flowing');
        save(true);
      } else save();
    },
  });
  const windowTimer = setTimeout(() => stop('window'), window.end - Date.now());
  const result = await current.done;
  clearTimeout(windowTimer);
  // Stopped by us while media flowed: what ffmpeg flushed on quitting reaches the moment of the stop.
  const flowing = run.lastMediaAt !== null && Date.now() - Date.parse(run.lastMediaAt) < 2000;
  if (flowing && state.stopCause && !result.stalled)
    run.lastMediaAt = new Date(Math.min(Date.now(), window.end)).toISOString();
  current = null;
  state.ffmpegPid = null;
  pieces.collectClosed(run.index);
  run.error =
    result.spawnError ??
    result.error ??
    (result.signal
      ? `ffmpeg was killed (${result.signal})`
      : result.code
        ? `ffmpeg exited with code ${result.code}`
        : null);
  if (run.error && STORAGE_FAILURE.test(run.error)) stop('storage');
  if (state.stopCause === 'window') return;
  if (state.stopCause === 'operator') {
    run.endReason = stopReason();
    return;
  }
  const end = describeRunEnd(
    { ...result, stallSeconds: settings.stallTimeoutSeconds },
    run.mediaSeconds > 0,
    everMedia,
  );
  run.endReason = refusedInRun ? `Stream refused (${refusedInRun})` : end.reason;
  run.endCause = refusedInRun ? 'stream_refused' : end.cause;
}

/** Appends the ledger's changes, or notes the recorder alive once the last note is `aliveEveryMs` old. */
function saveLedger(aliveEveryMs = 0): void {
  try {
    ledger.save(Date.now(), aliveEveryMs);
  } catch (error) {
    log('recorder', `could not write the segment ledger: ${(error as Error).message}`);
  }
}

/** The ledger as one line, for the next machine or a person to read. */
function saveWholeLedger(): void {
  try {
    ledger.saveWhole();
  } catch (error) {
    log('recorder', `could not write the segment ledger: ${(error as Error).message}`);
  }
}

function newRun(): RunRecord {
  // After the runs of this machine and of the one it replaces (their segments are in the ledger it shipped).
  const run: RunRecord = {
    index: Math.max(runs.at(-1)?.index ?? 0, ledger.last()?.run ?? 0) + 1,
    startedAt: now(),
    firstMediaAt: null,
    lastMediaAt: null,
    endedAt: null,
    endReason: null,
    error: null,
    mediaSeconds: 0,
    bytes: 0,
  };
  runs.push(run);
  save(true);
  return run;
}

/** The stream's HLS playlist, when it has one: the URL itself, or what yt-dlp resolves a page to. */
async function hlsPlaylistOf(url: string): Promise<string | null> {
  if (isHlsUrl(url)) return url;
  if (isDirectMediaUrl(url)) return null;
  const resolved = await resolveStreamUrl(url, { ytDlpPath: config.ytDlpPath, proxy: (await proxyStarted)?.url, pin });
  if (!resolved.ok || !isHlsUrl(resolved.url)) return null;
  log('recorder', `stream page resolved by yt-dlp to ${resolved.url.slice(0, 200)}`);
  return resolved.url;
}

/** Records the window segment by segment when the stream is HLS; false when it is not (or needs ffmpeg's reader). */
async function recordHls(): Promise<boolean> {
  const playlist = await hlsPlaylistOf(config.url);
  if (!playlist || state.stopCause) return false;
  hlsCapture = true;
  const continuing = config.continuing;
  ledger.recorderStarted(
    Date.now(),
    window.start,
    continuing && { since: Date.parse(continuing.since) - window.offsetMs, reason: continuing.reason },
  );
  const runsFed = new FedRuns({
    config,
    pieces,
    newRun,
    log,
    measure: (run, line) => content.line(run, line),
    now,
    host: os.hostname(),
    ffmpegChanged: (pid) => {
      state.ffmpegPid = pid;
      save(true);
    },
    storageFailed: (reason) => {
      log('recorder', reason);
      stop('storage');
    },
    mediaFlowed: (run) => {
      state.lastProgressAt = run.lastMediaAt;
      if (state.firstMediaAt) return save();
      state.firstMediaAt = run.firstMediaAt;
      state.phase = 'running';
      log('recorder', 'media is flowing');
      save(true);
    },
  });
  const end = await readHls({
    url: playlist,
    pin,
    height: config.height,
    window,
    ledger,
    sink: runsFed,
    pause,
    stopped: () => state.stopCause !== null,
    log: (line) => log('recorder', line),
    progressed: () => save(),
    persist: saveLedger,
    stallMs: settings.stallTimeoutSeconds * 1000,
    continuesAfter: continuing?.after,
  });
  await runsFed.close();
  if (!end) return true;
  log('recorder', `the playlist cannot be read segment by segment (${end.unsupported}): ffmpeg reads the stream`);
  hlsCapture = ledger.kept.length > 0;
  return false;
}

/**
 * Where the window's measure ends: its end, or a stop (the rest of the window is no gap of the
 * stream's). A live stream's last seconds before a stop are still being published then (a segment and
 * a reload behind): they are no gap either.
 */
function measuredUntil(): number {
  const until = Math.min(Date.now(), stoppedAt, window.end);
  const last = ledger.last();
  if (!hlsCapture || until === window.end || !last) return until;
  const contentEnd = last.start + last.seconds * 1000;
  return Math.min(until, Math.max(contentEnd, until - (2 * last.seconds * 1000 + 1000)));
}

/** A recorder started again after a crash: the run it left is made whole before anything more is recorded or shipped. */
function recover(): void {
  if (open && hlsCapture) recoverCutRun(open, pieces, ledger);
  if (shipper) pieces.resume();
}

/**
 * A recorder launched ahead of its window (the provider's lead time) waits for it to open; a stop
 * cuts the wait short. The HLS reader still takes the segment that holds the window's first second.
 */
async function waitForWindow(): Promise<void> {
  const early = window.start - Date.now();
  if (early <= 0 || state.stopCause) return;
  log('recorder', `ready ${Math.round(early / 1000)} s before the window opens at ${config.windowStart}; waiting`);
  await pause.for(early);
}

async function record(): Promise<void> {
  await waitForWindow();
  if (state.stopCause) return;
  recover();
  log(
    'recorder',
    `${runs.length ? `relaunched (${state.relaunches}); continuing` : 'capturing'} ${config.url} until ${config.windowEnd} at ${config.width}x${config.height} into ${config.outputPath}`,
  );
  if (await recordHls()) return;
  const lastMedia = runs.findLast((r) => r.lastMediaAt)?.lastMediaAt;
  const retries = new RetryPlan(settings, lastMedia ? Date.parse(lastMedia) : null);
  while (!state.stopCause && Date.now() < window.end) {
    const everMedia = runs.some((r) => r.mediaSeconds > 0);
    const run = newRun();
    await connect(run, everMedia);
    run.endedAt = now();
    save(true);
    if (state.stopCause || Date.now() >= window.end) break;
    const waitMs = Math.min(retries.next(run.mediaSeconds > 0, Date.now()), window.end - Date.now());
    log('recorder', `${run.endReason ?? 'connection ended'}; trying again in ${(waitMs / 1000).toFixed(0)} s`);
    await pause.for(waitMs);
  }
}

/** Size of the joined file; an empty one (the name reserved at launch) is removed: nothing to download. */
function outputSize(): number {
  try {
    const size = fs.statSync(config.outputPath).size;
    if (size === 0) fs.rmSync(config.outputPath);
    return size;
  } catch {
    return 0;
  }
}

function stopReason(): string {
  return readJson<StopRequest>(path.join(dir, INSTANCE_FILES.stop))?.reason ?? 'Terminated';
}

/** Measures the pieces, joins them into the output file and writes the outcome. */
let finishing = false;
async function finish(internalError: string | null): Promise<void> {
  if (finishing) return;
  finishing = true;
  state.phase = 'stopping';
  save(true);
  pieces.measureAll();
  // Coverage counts what reached the store: the pieces still queued get a last chance first.
  const undelivered = shipper ? await shipper.drain(Date.now() + FINAL_DELIVERY_MS) : 0;
  const until = measuredUntil();
  const coverage = coverageUntil(until, true);
  state.measuredUntil = toServerIso(until);
  const joinError = coverage.coveredSeconds > 0 ? await pieces.join(config.ffmpegPath, config.outputPath) : null;
  const deliveryError = shipper && joinError === null ? await deliverJoinedFile(shipper, config) : null;
  if (joinError === null && deliveryError === null) pieces.discard();
  const lastError =
    [...runs].reverse().find((r) => r.error)?.error ?? (hlsCapture ? (ledger.conditions.at(-1)?.reason ?? null) : null);
  const storage = state.stopCause === 'storage' ? lastError : null;
  const decided = outcomeFromCoverage(coverage, lastError, state.stopCause === 'operator' ? stopReason() : storage);
  const failedJoin = joinError !== null && coverage.coveredSeconds > 0;
  if (storage || failedJoin || deliveryError)
    Object.assign(decided, { status: 'failed', reason: storage ?? joinError ?? deliveryError });
  if (undelivered > 0 && !decided.reason)
    decided.reason = `${undelivered} segment(s) did not reach the store: ${shipper?.report().lastError}`;
  const bytes = shipper && !deliveryError ? releaseLocalCopy(config.outputPath) : outputSize();
  state.coverage = coverage;
  state.content = content.report(true);
  if (config.measureContent !== false) {
    const contentError = await keepContent(shipper, dir, config, state.content, path.join(dir, INSTANCE_FILES.content));
    if (contentError) log('recorder', contentError);
  }
  state.mediaSeconds = coverage.coveredSeconds;
  state.bytes = bytes;
  state.outcome = {
    ...decided,
    reason: internalError ?? decided.reason,
    endedBy: internalError ? 'error' : (state.stopCause ?? 'window'),
    exitCode: null,
    signal: null,
  };
  if (shipper) {
    const metadataError = await deliverMetadata(shipper, dir, config, {
      outcome: state.outcome,
      coverage,
      measuredUntil: state.measuredUntil,
      mediaBytes: deliveryError ? 0 : bytes,
      pieces,
      content: state.content,
    });
    if (metadataError) log('recorder', metadataError);
    state.delivery = shipper.report();
  }
  state.phase = 'exited';
  state.endedAt = now();
  save(true);
  if (hlsCapture) saveWholeLedger();
  const { status, reason } = state.outcome;
  log(
    'recorder',
    `finished: ${status}${reason ? ` (${reason})` : ''}; ${coverage.coveredSeconds} s of ${coverage.expectedSeconds} s covered, gaps: ${coverage.gaps.length}, reconnects: ${coverage.reconnects}, ${bytes} bytes`,
  );
  logStream.end(() => process.exit(0));
}

function internalError(error: Error): void {
  log('recorder', `internal error: ${error.stack ?? error.message}`);
  current?.stop();
  if (!finishing) return void finish(`Recorder error: ${error.message}`);
  // Failed while finishing: the outcome says so, and the pieces stay for a person to join.
  state.outcome = {
    status: 'failed',
    reason: `Recorder error while joining the pieces: ${error.message}`,
    endedBy: 'error',
    exitCode: null,
    signal: null,
  };
  state.phase = 'exited';
  save(true);
  logStream.end(() => process.exit(1));
}
process.on('uncaughtException', internalError);
process.on('unhandledRejection', (reason) =>
  internalError(reason instanceof Error ? reason : new Error(String(reason))),
);

writePidFile(dir, process.pid);
save(true);
// Terminated while this process was still starting: stop at once.
if (fs.existsSync(path.join(dir, INSTANCE_FILES.stop))) stop('operator');
void record().then(() => finish(null));
