/*
 * What the server and a recorder exchange, and nothing else: the files of DATA_DIR/instances/<id>/
 * (names and shapes), the recorder's settings and configuration, its state and outcome, the coverage
 * and gaps it reports, and where it delivers. Both sides import this file; it imports nothing, so the
 * server reads the recorder's reports without loading the recorder (docs/architecture.md, "Recorder
 * protocol").
 *
 *   config.json   what to record, written by the server before the recorder starts (never changed)
 *   state.json    the recorder's progress and outcome, rewritten atomically (write + rename) at each
 *                 change of phase, run, ffmpeg or content condition (or one reaching its alarm
 *                 threshold), else every 5 s
 *   recorder.pid  the recorder's process id (also the id of its process group), rewritten atomically
 *   recorder.lock.<n>  the claim of the recorder that holds the folder (see claimFolder)
 *   recorder.log  the recorder's and ffmpeg's log, what /api/instances/{id}/logs reads
 *   stop.json     written by the server to ask for a stop, with the reason, before it signals
 *   relaunches.json  written by the server each time it starts a recorder again that died in its window
 *   delivered.txt the pieces that reached the object store, one name a line (a capture that delivers)
 *   ledger.json   an HLS capture's segment ledger (hls-ledger.ts): what was kept, lost, and why; one line
 *                 of the whole ledger, then one appended line per change
 *   content.jsonl the content readings, one 10 s window a line, appended (content-meter.ts)
 *   live.json     a recorder that reports live (EC2): its last live report, as shipped to the store
 *   (the pieces are in <output>.parts/ until joined, with each run's list of them: see piecesDirOf)
 *   runtime/      the recorder's code, copied from the image the instance starts from
 */

export const STATE_FORMAT_VERSION = 1;

export const INSTANCE_FILES = {
  config: 'config.json',
  state: 'state.json',
  pid: 'recorder.pid',
  log: 'recorder.log',
  stop: 'stop.json',
  ledger: 'ledger.json',
  relaunches: 'relaunches.json',
  delivered: 'delivered.txt',
  content: 'content.jsonl',
  live: 'live.json',
  runtime: 'runtime',
} as const;

/** The recorder's code: what an image freezes and each instance runs a copy of. */
export const RUNTIME_FILES = [
  'recorder.ts',
  'protocol.ts',
  'recorder-state.ts',
  'ffmpeg-args.ts',
  'recorder-attempt.ts',
  'recorder-pieces.ts',
  'mpegts-seconds.ts',
  'mpegts-codecs.ts',
  'recorder-delivery.ts',
  'recorder-handover.ts',
  'recorder-coverage.ts',
  'recorder-window.ts',
  'run-queue-wait.ts',
  'content-filters.ts',
  'content-meter.ts',
  'recorder-live.ts',
  'recorder-hls.ts',
  'source-fit.ts',
  'fed-queue.ts',
  'hls-reader.ts',
  'hls-http.ts',
  'hls-playlist.ts',
  'hls-ledger.ts',
  'stream-url.ts',
  'egress-guard.ts',
  'egress-proxy.ts',
  'special-addresses.ts',
  'machine-addresses.ts',
  'instance-metadata.ts',
  'url-secrets.ts',
] as const;
export const RUNTIME_ENTRY = 'recorder.ts';

/** Encoder and watchdog settings; an image freezes them with the runtime. */
export interface RecorderSettings {
  /** x264 preset. */
  preset: string;
  crf: number;
  audioBitrate: string;
  stallTimeoutSeconds: number;
  /** Seconds between asking ffmpeg to quit ('q') and sending it SIGTERM. */
  stopGraceSeconds: number;
  /** First wait before trying a stream again that gave no media; it doubles up to retryMaxSeconds. */
  retryInitialSeconds: number;
  retryMaxSeconds: number;
  /** Wait between tries of a stream that dropped, for the first dropRetryForSeconds after the drop. */
  dropRetrySeconds: number;
  dropRetryForSeconds: number;
  /** Length of the pieces each ffmpeg run writes. */
  segmentSeconds: number;
  /**
   * Seconds of HLS segments an ffmpeg run that cannot keep up may have waiting before new ones are let
   * go as `recorder_overloaded` (recorder-hls.ts): what it still has to work through after the window.
   */
  overloadBacklogSeconds: number;
}

export const DEFAULT_RECORDER_SETTINGS: RecorderSettings = {
  preset: 'veryfast',
  crf: 23,
  audioBitrate: '128k',
  stallTimeoutSeconds: 60,
  stopGraceSeconds: 3,
  retryInitialSeconds: 5,
  retryMaxSeconds: 30,
  dropRetrySeconds: 2,
  dropRetryForSeconds: 60,
  segmentSeconds: 4,
  overloadBacklogSeconds: 60,
};

export interface RecorderConfig {
  version: typeof STATE_FORMAT_VERSION;
  instanceId: string;
  name: string;
  url: string;
  duration: number;
  width: number;
  height: number;
  mosqueId: string | null;
  method: string;
  jobId: string | null;
  idempotencyKey: string;
  recordingId: string | null;
  imageId: string | null;
  ffmpegPath: string;
  /** ffprobe, to measure the pieces; null: looked for beside ffmpeg, then on PATH. */
  ffprobePath?: string | null;
  /** yt-dlp, to resolve stream pages; null: `yt-dlp` on PATH. */
  ytDlpPath?: string | null;
  /** Where the recorder may connect (absent in a config written before the egress guard: guarded). */
  egress?: EgressPolicy;
  /**
   * The recording window in the server's clock (ISO UTC). The recorder records until windowEnd,
   * whatever fails on the way; clockOffsetMs (server clock minus this machine's) maps it to local time.
   */
  windowStart: string;
  windowEnd: string;
  clockOffsetMs: number;
  outputPath: string;
  logPath: string;
  settings: RecorderSettings;
  /** Keep the stream's own video and audio (no transcoding): the frame size is the source's. */
  sourceAsIs?: boolean;
  /** false: the runs do not measure their content (content-filters.ts); absent: they do. */
  measureContent?: boolean;
  /**
   * The server's CONTENT_ALARM_SECONDS (absent in a config written before it was passed on: the
   * default). The server alarms; the recorder writes its state at once when a condition reaches it,
   * and a copying run looks at the picture every quarter of it (content-filters.ts).
   */
  contentAlarmSeconds?: number;
  /** Where the pieces and the joined file go besides this machine; absent or null: they stay here (local store). */
  delivery?: RecorderDelivery | null;
  /** Set when this recorder continues a recording whose recorder was lost with its server, on another host. */
  continuing?: ContinuingFrom;
  /** A recorder whose state the server cannot read (EC2) ships a live report to the store (recorder-live.ts). */
  liveReport?: LiveReportSettings;
  createdAt: string;
}

/** When a recorder ships its live report: see recorder-live.ts. */
export interface LiveReportSettings {
  /** At most this long between two reports while the window is open. */
  everySeconds: number;
}

/**
 * What a recorder on a machine the server cannot read ships while its window is open: `live.json`
 * under its recording's key prefix, read by the server at each pass over its instances.
 */
export interface LiveReport {
  /** The launch that wrote it (its config's idempotency key): a machine that replaces it writes its own. */
  launchKey: string;
  /** When it was written (the server's clock, ISO UTC). */
  measuredUntil: string;
  /**
   * The recording's window (the server's clock): while it is open, a report not refreshed for a while
   * tells that the recorder stopped reporting. Absent from the reports of recorders before it.
   */
  windowStart?: string;
  windowEnd?: string;
  bytes: number;
  mediaSeconds: number;
  /** What the media covers of the window so far, with its gaps: the server's stall alarm. Absent from earlier recorders'. */
  coverage?: Coverage | null;
  content: ContentSummary | null;
}

/**
 * Where a recording lost with its server stopped, as that server last reported it (the ResumePoint its
 * recorder wrote), for the recorder that continues it on another host.
 */
export interface ContinuingFrom {
  /** The media sequence the lost recorder kept last; null when unknown (its reading starts at the live edge). */
  after: number | null;
  /** From when (server clock, ISO UTC) the recording holds nothing: the start of the lost server's hole. */
  since: string;
  /** Why: names the lost server and its host. */
  reason: string;
}

/** The last segment an HLS capture kept, for a recorder that continues it elsewhere (server clock). */
export interface ResumePoint {
  sequence: number;
  /** Where its content ends (ISO UTC). */
  end: string;
}

export type RecorderPhase = 'pending' | 'running' | 'stopping' | 'exited';
export type StopCause = 'operator' | 'window' | 'storage';

/** One ffmpeg run (a connection to the stream) of a recorder. Times are this machine's clock, ISO UTC. */
export interface RunRecord {
  index: number;
  startedAt: string;
  /** When its first media arrived; null for a run that got none. */
  firstMediaAt: string | null;
  /** When its media last advanced. */
  lastMediaAt: string | null;
  /**
   * A run ffmpeg reads from the network: when the stream was first known to be on the air before ffmpeg
   * started, as the URL answered with media, else as the recorder's probe found its media (a wait for
   * ffmpeg's first media after it was ours).
   */
  onAirAt?: string | null;
  /**
   * A run ffmpeg reads from the network: when its first media second was on the air, from ffmpeg's
   * output time against this machine's clock (absent in a fed HLS run and in a state written before).
   */
  mediaFrom?: string | null;
  /**
   * Where a copying network run's media broke off inside the run (ffmpeg reconnected to the stream by
   * itself): from `atSeconds` of its output on, media second s was on the air at `from` + s. Counted
   * once `confirmed` (media went on after it).
   */
  mediaBreaks?: { atSeconds: number; from: string; confirmed?: boolean }[];
  /**
   * The earliest on-air time of the current anchor's reports (`mediaFrom`, else the last break's) less
   * the CPU wait of ffmpeg and the recorder by then: lateness this wait explains is not a break.
   */
  unwaitedFrom?: string;
  endedAt: string | null;
  /** Why it ended, as a person reads it ("Stream dropped (HTTP 404)"); null while it runs. */
  endReason: string | null;
  /** The same, as a gap cause (what the hole after it is put down to); null while it runs. */
  endCause?: GapCause | null;
  /** ffmpeg's own last error line, for the log and a failure's reason. */
  error: string | null;
  /** Seconds of media ffmpeg reported writing (its progress); the probed pieces are the final word. */
  mediaSeconds: number;
  bytes: number;
}

/**
 * Why a part of the window has no media, from a fixed vocabulary a person understands (the console and
 * the alarms translate it; `reason` adds the detail, e.g. the HTTP status).
 */
export const GAP_CAUSES = [
  'not_live_yet',
  'stream_dropped',
  'stream_stalled',
  'stream_refused',
  'sequence_reset',
  'recorder_down',
  'recorder_late',
  'recorder_overloaded',
  'server_down',
  'store_unreachable',
] as const;
export type GapCause = (typeof GAP_CAUSES)[number];

export interface Gap {
  start: string;
  end: string;
  cause: GapCause;
  /** One sentence with the detail ("Stream dropped (HTTP 404)"). */
  reason: string;
  /** Seconds of content the stream offered in this gap and the recording does not hold (0: nothing was on the air). */
  content_lost_seconds: number;
}

/** What the media covers of the window, in the server's clock. */
export interface Coverage {
  expectedSeconds: number;
  coveredSeconds: number;
  gaps: Gap[];
  /** Times media came back after it had flowed and stopped. */
  reconnects: number;
}

/** A hole in the media longer than this, still going on, is a stall worth an alarm (the server's `stall`). */
export const STALL_ALARM_SECONDS = 60;
/**
 * A gap that reaches the instant its coverage was measured up to is still open (the recorder measures
 * and saves in one go: a second covers it).
 */
export const OPEN_AT_MEASURE_MS = 1000;

/** A gap long enough to be a stall: a stream not on the air yet is none. */
export const isStallGap = (gap: Pick<Gap, 'cause' | 'start' | 'end'>) =>
  gap.cause !== 'not_live_yet' && (Date.parse(gap.end) - Date.parse(gap.start)) / 1000 > STALL_ALARM_SECONDS;

/** Whether the newest of `gaps` still goes on at `measuredUntil` (ms) and is a stall. */
export function stallGoingOn(gaps: readonly Gap[], measuredUntil: number): boolean {
  const newest = gaps.at(-1);
  return newest !== undefined && Date.parse(newest.end) > measuredUntil - OPEN_AT_MEASURE_MS && isStallGap(newest);
}

export interface RecorderOutcome {
  status: 'captured' | 'partial' | 'failed';
  reason: string | null;
  /** What ended the capture. */
  endedBy: 'window' | 'error' | 'crash' | StopCause;
  exitCode: number | null;
  signal: string | null;
}

export interface RecorderState {
  version: typeof STATE_FORMAT_VERSION;
  instanceId: string;
  recorderPid: number;
  ffmpegPid: number | null;
  phase: RecorderPhase;
  startedAt: string;
  firstMediaAt: string | null;
  lastProgressAt: string | null;
  endedAt: string | null;
  /** Bytes written: of the pieces while recording, of the joined output file at the end. */
  bytes: number;
  /** Seconds of media written. */
  mediaSeconds: number;
  stopCause: StopCause | null;
  /** Every ffmpeg run so far, across relaunches of the recorder. */
  runs: RunRecord[];
  /** Times the server started this recorder again after it died inside its window. */
  relaunches: number;
  coverage: Coverage | null;
  /**
   * Where the final coverage is measured up to (the server's clock): the window's end, or the stop. Set
   * with the outcome; the outcome itself is written later (after the join and the delivery), so its
   * time is no measure of what the coverage saw. Absent in a state written before it was kept.
   */
  measuredUntil?: string | null;
  outcome: RecorderOutcome | null;
  /** What reached the object store, for a capture that delivers. */
  delivery?: DeliveryReport | null;
  /** An HLS capture's last segment kept of the stream's current numbering (absent: none, or not HLS). */
  resumePoint?: ResumePoint | null;
  /** What the content meter measured so far: the conditions going on, loudness, silence (content-meter.ts). */
  content?: ContentSummary | null;
  updatedAt: string;
}

export interface RelaunchRecord {
  count: number;
  lastAt: string;
}

export interface StopRequest {
  reason: string;
  requestedAt: string;
}

/** Where a recorder may connect; written by the server into the recorder's config. */
export interface EgressPolicy {
  /** ALLOW_PRIVATE_STREAM_HOSTS: every address may be reached (a LAN encoder, tests); nothing is checked. */
  allowPrivate: boolean;
  /** `host:port` pairs reachable though internal: the server's own demo stream. */
  trustedHosts: string[];
}

export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
}

export type RecorderDelivery = {
  /** The recording's key prefix in the bucket (the store's own prefix included), ending in '/'. */
  keyPrefix: string;
  /** The joined file's key as the server's store names it (what the recording row points at). */
  mediaKey: string;
  /** When the permission to upload ends (server's clock, ISO UTC); nothing is tried after it. */
  expiresAt: string;
} & (
  | { kind: 's3'; bucket: string; region: string; endpoint: string | null }
  | { kind: 'presigned-post'; post: PresignedPost }
);

/** What reached the store so far, in the recorder's state. */
export interface DeliveryReport {
  delivered: number;
  pending: number;
  /** The last upload failure, as a person reads it; null once uploads succeed again. */
  lastError: string | null;
}

export const CONTENT_CONDITIONS = ['audio_silent', 'audio_missing', 'picture_frozen', 'picture_black'] as const;
export type ContentCondition = (typeof CONTENT_CONDITIONS)[number];

/** CONTENT_ALARM_SECONDS' default. */
export const DEFAULT_CONTENT_ALARM_SECONDS = 120;
/** A missing sound track is known from the first seconds and does not come back by itself: told sooner. */
const MISSING_AUDIO_ALARM_MAX_SECONDS = 30;

/** How long a condition of `kind` lasts before it is alarmed, for a CONTENT_ALARM_SECONDS of `thresholdSeconds`. */
export function contentAlarmSecondsOf(kind: ContentCondition, thresholdSeconds: number): number {
  return kind === 'audio_missing' ? Math.min(thresholdSeconds, MISSING_AUDIO_ALARM_MAX_SECONDS) : thresholdSeconds;
}

/**
 * What of the content the server's alarms act on: each condition going on, marked once it has lasted
 * its alarm threshold. The recorder writes its state (and ships its live report) at once when this changes.
 */
export function alarmSignature(content: ContentSummary | null | undefined, thresholdSeconds: number): string {
  return (content?.conditions ?? [])
    .map(({ kind, seconds }) => (seconds >= contentAlarmSecondsOf(kind, thresholdSeconds) ? `${kind} alarmed` : kind))
    .sort()
    .join();
}

/** One 10 s window of the recording, as content.jsonl holds it (one JSON object a line). */
export interface ContentWindow {
  /** Its start, in the server's clock (ISO UTC). */
  start: string;
  /** Seconds of media measured in it (less than 10 where the recording has a gap). */
  measured: number;
  /** Energy mean of its momentary loudness blocks above -70 LUFS (LUFS); null: no audio or only silence. */
  loudness: number | null;
  /** How many 100 ms loudness blocks went into `loudness`. */
  blocks: number;
  momentaryMax: number | null;
  silent: number;
  frozen: number;
  black: number;
  /** Whether it held a picture at all. */
  video: boolean;
}

export interface OngoingCondition {
  kind: ContentCondition;
  /** Where it began on the window, in the server's clock. */
  since: string;
  /** Media seconds it has lasted so far. */
  seconds: number;
}

/** What the recorder's state says of the content (state.json `content`). */
export interface ContentSummary {
  measuredSeconds: number;
  integratedLufs: number | null;
  /** Highest sample peak of the recording (dBFS), of any channel. */
  peakDbfs: number | null;
  longestSilenceSeconds: number;
  silentSeconds: number;
  frozenSeconds: number;
  blackSeconds: number;
  conditions: OngoingCondition[];
  /**
   * While it records: the last RECENT_CONTENT_WINDOWS readings of content.jsonl, oldest first, so the
   * server can show the strip of a running recording (the Instances details) without reading the file.
   */
  recent?: ContentWindow[];
}

/** The readings a running recording's summary carries: its last 5 minutes. */
export const RECENT_CONTENT_WINDOWS = 30;

/**
 * The content file a finished recording keeps beside its media (`<media file>.content.json`, see
 * contentFileOf): the recorder's last summary and every 10 s window, what the recording's page draws.
 */
export interface RecordingContent {
  summary: ContentSummary;
  windows: ContentWindow[];
}

/** Where a recording's content file is: beside its media, named after it, so deleting the media's key prefix takes it too. */
export function contentFileOf(media: string): string {
  return `${media}.content.json`;
}
