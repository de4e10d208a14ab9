/**
 * `npm run fidelity -- --recordings 13 --minutes 3 --seed 1 [--keep]`: a season of real recordings against the
 * fidelity lab (testkit/fidelity-origin.ts; testkit/fidelity-radio.ts and testkit/fidelity-rtmp.ts for
 * a radio mount and an RTMP origin). The real server (a process of its own, run from the current
 * sources) records N numbered live streams at once with its local recorders, each stream with a fault
 * drawn from a seeded mix (two of them done here to a recorder: the SIGKILL of its process, and a
 * transcode whose ffmpeg is starved of CPU in a cgroup for a while), launched over HTTP
 * through POST /api/instances/launch as the console does. Each recording is then downloaded, read back
 * into frame indices and compared with what its origin offered, and its reported gaps with the true
 * holes. Alarm notifications are counted at a webhook receiver here.
 * Progress and one line per recording on stderr; the last line on stdout is the season's figures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { alarmsResponseSchema, type ListedAlarm } from '../../contract/alarms';
import { instanceLogsResponseSchema, launchResponseSchema } from '../../contract/instances';
import { alive, instancePids, killRecorders } from '../../testkit/capture';
import { cpuLimit, type CpuLimit } from '../../testkit/cpu-limit';
import { ownCpuSeconds } from '../density-cgroup';
import { startFidelityOrigin, type WindowTruth } from '../../testkit/fidelity-origin';
import { startFidelityRadio } from '../../testkit/fidelity-radio';
import { startFidelityRtmp } from '../../testkit/fidelity-rtmp';
import {
  compareWithTruth,
  readFrameIndices,
  unfreeze,
  type FidelityReport,
  type Loss,
} from '../../testkit/frame-decoder';
import { FRAME_CODE, frozenFrames } from '../../testkit/numbered-stream';
import { pause, waitFor } from '../../testkit/wait';
import { startWebhookReceiver, type WebhookPost } from '../../testkit/webhook-receiver';
import { publishSection } from '../published-sections';
import { builtServerIsCurrent } from '../../tests/support/server-process';
import { call, signIn, startRealServer, startSourceServer, type RunningServer } from '../servers';
import { Random } from '../simulate/random';
import { isContentCondition, scoreContentAlarms, type ContentFaultSpan, type ContentScore } from './content-score';
import {
  CONTENT_ALARM,
  planStreams,
  RADIO_ON_AIR_SECONDS,
  type PlannedStream,
  type RecorderKill,
  type RecorderStarved,
} from './faults';
import { fidelitySection } from './publish';
import { lostToStarvation, scoreGaps, type FaultSpan, type GapScore, type ReportedGap } from './score';
import { positiveArg } from '../lib';

const { values } = parseArgs({
  options: {
    recordings: { type: 'string', default: '13' },
    minutes: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
    publish: { type: 'boolean', default: false },
    /** Leaves the work folder (the server's data, recordings and recorder state) for a look afterwards. */
    keep: { type: 'boolean', default: false },
  },
});

const RESULTS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'RESULTS.md');

/** The recorders' frame size: the programme's own, so a dozen transcodes at once fit a small machine. */
const FRAME_SIZE = { width: FRAME_CODE.width, height: FRAME_CODE.height };
/** A starved recorder's: twice the programme's, so its source does not fit and it transcodes. */
const STARVED_FRAME_SIZE = { width: FRAME_CODE.width * 2, height: FRAME_CODE.height * 2 };
/** After its window, a recording is given this long to join its pieces and report. */
const SETTLE_AFTER_WINDOW_MS = 120_000;
/**
 * Notifications have stopped when none arrived for this long after the last recording ended: longer
 * than the server's group window (ALARM_GROUP_WINDOW_SECONDS, 30 s by default), whose message comes at its end.
 */
const QUIET_MS = 35_000;
/**
 * CONTENT_ALARM_SECONDS of the season's server (120 s by default): a content fault of a fifth to a
 * third of a one-minute window lasts well past it, so each is raised and resolved inside the window.
 */
const CONTENT_ALARM_SECONDS = 8;
/** A live programme this late on the air was held up by the machine, not by its chunking: said in its line. */
const LATE_WORTH_SAYING_MS = 500;
/**
 * RECORDER_OVERLOAD_SECONDS of the season's server (60 s by default): a starvation of half a one-minute
 * window leaves ffmpeg some 20 s behind, under the default bound, so the starved recording would lose
 * nothing. At 6 s (three segments, as tests/faults/recorder-overload.test.ts) it passes the bound well
 * inside the starvation and lets segments go, which the recording must report as `recorder_overloaded`
 * where they were on the air. Only a recorder whose ffmpeg is measured below real time lets go: the
 * others, which copy, are not touched by the bound.
 */
const RECORDER_OVERLOAD_SECONDS = 6;

/** What the bench reads of GET /api/recordings (a server before the cause vocabulary sends gaps without `cause`). */
const recordingsSchema = z.object({
  data: z.object({
    recordings: z.array(
      z.object({
        id: z.string(),
        instance_id: z.string(),
        status: z.string(),
        started_at: z.string(),
        expected_seconds: z.number().nullable(),
        download_url: z.string().nullable(),
        gaps: z.array(
          z.object({
            start: z.string(),
            end: z.string(),
            cause: z.string().optional(),
            reason: z.string(),
            content_lost_seconds: z.number().optional(),
          }),
        ),
      }),
    ),
  }),
});
type ReportedRecording = z.infer<typeof recordingsSchema>['data']['recordings'][number];

/** A live stream of the lab as the season scores it, whichever kind it is. */
interface LabStream {
  url: string;
  /** Epoch ms of the stream's start, from which its faults are timed. */
  startedAt: number;
  window(from: number, to: number): WindowTruth;
  /** Its faults as they happened. */
  faults(): FaultSpan[];
  /** The programme's frame indices a recording of it holds. */
  readBack(file: string): Promise<(number | null)[]>;
  /** The programme's content fault, as it was on the air. */
  content?: ContentFaultSpan;
  /**
   * How far behind its schedule a programme made live came on the air, at most (ms): the lab itself held
   * up by the machine's load. The truth follows what was on the air; this says the schedule did not hold.
   */
  latestMs?(): number;
  close(): Promise<void>;
}

async function startStream(plan: PlannedStream, minutes: number): Promise<LabStream> {
  if (plan.source === 'radio') return startFidelityRadio([plan.fault], RADIO_ON_AIR_SECONDS);
  // The programme outlasts the window, the stream's history before it and a slow stretch.
  if (plan.source === 'rtmp')
    return { ...(await startFidelityRtmp([plan.fault], minutes + 2)), readBack: readFrameIndices };
  const origin = await startFidelityOrigin({ minutes: minutes + 2, ...plan.origin });
  const { content } = plan.origin;
  const frozen = content && frozenFrames(content);
  const onAir = (second: number) => origin.window(0, 0).broadcastAt(second * FRAME_CODE.fps);
  return {
    url: origin.url,
    startedAt: origin.truth().startedAt,
    window: origin.window,
    faults: () => origin.truth().faults,
    readBack: frozen ? async (file) => unfreeze(await readFrameIndices(file), frozen) : readFrameIndices,
    // No sound track: from the recording's start (set when it is scored) to its end.
    content: content && {
      alarm: CONTENT_ALARM[content.fault],
      from: onAir(content.from),
      to: content.fault === 'no_audio' ? null : onAir(content.to),
    },
    close: origin.close,
  };
}

interface Recording {
  index: number;
  plan: PlannedStream;
  stream: LabStream;
  instanceId: string;
  /** The SIGKILL of its recorder, once done: from the kill to a new recorder process alive. */
  kill?: Promise<FaultSpan>;
  /** The starvation of its recorder's ffmpeg, once done: from its ffmpeg held to its ffmpeg let go. */
  starvation?: Promise<StarvationSpan>;
}

/** How long the season waits for the server to start a killed recorder again. */
const RELAUNCH_WAIT_MS = 30_000;

/**
 * SIGKILLs the recorder process of an instance at `fault.at` seconds after its stream's start (its
 * ffmpeg is left to the server, which stops the orphan), and times until a new recorder runs.
 */
async function killRecorderAt(
  dataDir: string,
  instanceId: string,
  stream: LabStream,
  fault: RecorderKill,
): Promise<FaultSpan> {
  await pause(stream.startedAt + fault.at * 1000 - Date.now());
  const { recorder } = instancePids(dataDir, instanceId);
  if (!recorder || !alive(recorder)) throw new Error(`no live recorder of ${instanceId} to kill`);
  process.kill(recorder, 'SIGKILL');
  const from = Date.now();
  await waitFor(
    () => {
      const next = instancePids(dataDir, instanceId).recorder;
      return next !== recorder && alive(next);
    },
    `the server to start the recorder of ${instanceId} again`,
    RELAUNCH_WAIT_MS,
    200,
  );
  return { fault, from, to: Date.now() };
}

/** How long a starvation waits for the recorder's ffmpeg to run (a recorder launched under load starts late). */
const FFMPEG_WAIT_MS = 30_000;

/** A starvation as it happened, and the CPU its ffmpeg had meanwhile. */
interface StarvationSpan extends FaultSpan {
  fault: RecorderStarved;
  ffmpegCpuSeconds: number;
}

/**
 * Holds the ffmpeg of an instance in `limit` (a CPU-limited cgroup) from `fault.at` seconds after its
 * stream's start for `fault.seconds`, then lifts the limit, and measures the CPU it had meanwhile. The
 * instance's state names its ffmpeg; a new run's ffmpeg started meanwhile is held too.
 */
async function starveRecorderAt(
  dataDir: string,
  instanceId: string,
  stream: LabStream,
  fault: RecorderStarved,
  limit: CpuLimit,
): Promise<StarvationSpan> {
  await pause(stream.startedAt + fault.at * 1000 - Date.now());
  const running = () => {
    const { ffmpeg } = instancePids(dataDir, instanceId);
    return ffmpeg !== undefined && alive(ffmpeg) ? ffmpeg : undefined;
  };
  /** CPU seconds of each ffmpeg held: when it was held, and when last seen. */
  const cpu = new Map<number, { held: number; seen: number }>();
  const hold = (pid: number) => {
    limit.hold(pid);
    const now = ownCpuSeconds(pid) ?? 0;
    cpu.set(pid, { held: now, seen: now });
  };
  hold(await waitFor(running, `the ffmpeg of ${instanceId} to starve`, FFMPEG_WAIT_MS, 200));
  const from = Date.now();
  const until = from + fault.seconds * 1000;
  while (Date.now() < until) {
    await pause(Math.min(1000, until - Date.now()));
    for (const [pid, seconds] of cpu) seconds.seen = ownCpuSeconds(pid) ?? seconds.seen;
    const pid = running();
    if (pid !== undefined && !cpu.has(pid)) hold(pid);
  }
  limit.lift();
  const ffmpegCpuSeconds = [...cpu.values()].reduce((sum, { held, seen }) => sum + seen - held, 0);
  return { fault, from, to: Date.now(), ffmpegCpuSeconds };
}

/**
 * A CPU-limited cgroup for each starved recording of the plan; a plan whose group cannot be made (not
 * root, no cpu controller) is left out of the season, saying why: the other faults need no cgroup.
 */
function starvationLimits(plans: PlannedStream[]): { plans: PlannedStream[]; limits: Map<PlannedStream, CpuLimit> } {
  const limits = new Map<PlannedStream, CpuLimit>();
  const kept = plans.filter((plan, index) => {
    if (plan.fault.kind !== 'recorder_starved') return true;
    try {
      limits.set(plan, cpuLimit(`capture-fidelity-${process.pid}-${index + 1}`, plan.fault.cpuPercent));
      return true;
    } catch (error) {
      console.error(`skipping the starved transcode: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  });
  return { plans: kept, limits };
}

/** Removes a starvation's cgroup once the processes held in it have exited; says so when it cannot. */
async function removeLimit(limit: CpuLimit): Promise<void> {
  await limit
    .remove(10_000)
    .catch((error: unknown) => console.error(error instanceof Error ? error.message : String(error)));
}

/** The server under test as the console reaches it: its address and a signed-in admin's token. */
interface Api {
  baseUrl: string;
  token: string;
}

/**
 * The real server in a process of its own (the origins here must not wait on its work), its alarms
 * posted to `webhookUrl`: what ships (`npm run build`'s server and recorder) when it was built from the
 * current sources, as in CI; else the sources, so a change is never measured on an older build.
 */
async function startServer(dataDir: string, webhookUrl: string): Promise<{ server: RunningServer; api: Api }> {
  const env = {
    ALLOW_PRIVATE_STREAM_HOSTS: '1',
    ALARM_WEBHOOK_URL: webhookUrl,
    CONTENT_ALARM_SECONDS: String(CONTENT_ALARM_SECONDS),
    RECORDER_OVERLOAD_SECONDS: String(RECORDER_OVERLOAD_SECONDS),
  };
  const server = await (builtServerIsCurrent() ? startRealServer(dataDir, env) : startSourceServer(dataDir, env));
  return { server, api: { baseUrl: server.baseUrl, token: await signIn(server.baseUrl) } };
}

async function launch(
  api: Api,
  origin: LabStream,
  mosqueId: string,
  seconds: number,
  frameSize: { width: number; height: number },
): Promise<string> {
  await call(api.baseUrl, api.token, 'POST', '/api/config/mosques', {
    mosque_id: mosqueId,
    name: `Fidelity ${mosqueId}`,
    languages: ['en'],
  });
  const body = {
    configs: [{ url: origin.url, duration: seconds, ...frameSize, mosque_id: mosqueId }],
    max_workers: 1,
  };
  const { instances, failed } = launchResponseSchema.parse(
    await call(api.baseUrl, api.token, 'POST', '/api/instances/launch', body),
  ).data;
  if (failed.length > 0 || instances.length !== 1)
    throw new Error(`launch for ${mosqueId} failed: ${JSON.stringify(failed)}`);
  return instances[0].id;
}

async function listRecordings(api: Api): Promise<ReportedRecording[]> {
  return recordingsSchema.parse(await call(api.baseUrl, api.token, 'GET', '/api/recordings?limit=1000')).data
    .recordings;
}

/** Every alarm the season's server holds, open or resolved (a fresh server: far fewer than the 500 a page lists). */
async function listAlarms(api: Api): Promise<ListedAlarm[]> {
  return alarmsResponseSchema.parse(await call(api.baseUrl, api.token, 'GET', '/api/alarms?status=all&limit=500')).data
    .alarms;
}

/** An ended recording's outcome alarm tells how it ended and stays open; every other alarm of it must have ended. */
const OUTCOME_KINDS: ReadonlySet<string> = new Set(['capture_partial', 'capture_failed']);

/**
 * The alarms of the season's (ended) recordings still open, other than their outcomes', and the
 * notifications of each stall alarm that was raised: it must be resolved, and told resolved once if it was told at all.
 */
function alarmLife(
  alarms: ListedAlarm[],
  instanceIds: ReadonlySet<string>,
  posts: WebhookPost[],
): { open: ListedAlarm[]; stallsNotResolvedOnce: ListedAlarm[] } {
  const ours = alarms.filter((alarm) => alarm.instance_id !== null && instanceIds.has(alarm.instance_id));
  const told = (alarm: ListedAlarm, event: string) =>
    posts.filter((post) => post.event === event && post.alarms.some((a) => a.id === alarm.id)).length;
  return {
    open: ours.filter((alarm) => alarm.resolved_at === null && !OUTCOME_KINDS.has(alarm.kind)),
    stallsNotResolvedOnce: ours.filter(
      (alarm) =>
        alarm.kind === 'stall' &&
        (alarm.resolved_at === null || told(alarm, 'resolved') !== (told(alarm, 'raised') > 0 ? 1 : 0)),
    ),
  };
}

/**
 * Whether the recorder of an instance turned to yt-dlp: every stream of the lab is media itself (an HLS
 * playlist, an RTMP address, a radio mount answering audio), so yt-dlp there is a stream taken for a page.
 */
async function askedYtDlp(api: Api, instanceId: string): Promise<boolean> {
  const { logs } = instanceLogsResponseSchema.parse(
    await call(api.baseUrl, api.token, 'GET', `/api/instances/${instanceId}/logs?lines=5000&live=false`),
  ).data;
  return logs.some((line) => /yt-dlp/i.test(line));
}

async function download(api: Api, url: string, file: string): Promise<void> {
  const response = await fetch(`${api.baseUrl}${url}`, { headers: { authorization: `Bearer ${api.token}` } });
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
  fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
}

interface Scored extends GapScore {
  recording: Recording;
  content: ContentScore;
  /** Its faults as they happened. */
  faults: FaultSpan[];
  reported: ReportedRecording;
  report: FidelityReport;
  offeredSeconds: number;
  /**
   * What a starvation of its recorder cost, said as such (`lostToStarvation`): not lost by us, but the
   * fault's own price, like frames a stream never offered. The rest of its losses stay lost by us.
   */
  starvedLosses: Loss[];
  lostToStarvationSeconds: number;
  /** The starvation of its recorder, as it happened. */
  starvation?: StarvationSpan;
}

async function score(
  api: Api,
  recording: Recording,
  reported: ReportedRecording,
  alarms: ListedAlarm[],
  workDir: string,
): Promise<Scored> {
  const from = Date.parse(reported.started_at);
  const window = recording.stream.window(from, from + (reported.expected_seconds ?? 0) * 1000);
  const contentAlarms = alarms.flatMap(({ instance_id, kind, raised_at, resolved_at }) =>
    instance_id === recording.instanceId && isContentCondition(kind)
      ? [{ kind, raisedAt: Date.parse(raised_at), resolvedAt: resolved_at === null ? null : Date.parse(resolved_at) }]
      : [],
  );
  const contentFault = recording.stream.content && {
    ...recording.stream.content,
    // A stream without a sound track has none from the recording's first second.
    from: recording.stream.content.to === null ? from : recording.stream.content.from,
  };
  let indices: (number | null)[] = [];
  if (reported.download_url) {
    const file = path.join(workDir, `${reported.id}.media`);
    await download(api, reported.download_url, file);
    // A file that cannot be read back holds nothing the season can count: said, and scored as empty.
    indices = await recording.stream.readBack(file).catch((error: unknown) => {
      console.error(
        `#${recording.index}: its file cannot be read back: ${error instanceof Error ? error.message : String(error)}`,
      );
      return [];
    });
  }
  const report = compareWithTruth(indices, window);
  const offeredFrames = window.frames
    ? window.frames.last -
      window.frames.first +
      1 -
      window.unavailable.reduce((sum, r) => sum + r.last - r.first + 1, 0)
    : 0;
  const kill = await recording.kill;
  const starvation = await recording.starvation;
  const faults = [...recording.stream.faults(), ...(kill ? [kill] : []), ...(starvation ? [starvation] : [])];
  const gaps: ReportedGap[] = reported.gaps.map((gap) => ({
    start: Date.parse(gap.start),
    end: Date.parse(gap.end),
    cause: gap.cause,
    reason: gap.reason,
  }));
  const starvedLosses = report.losses.filter((loss) =>
    lostToStarvation({ from: loss.broadcastFrom, to: loss.broadcastTo }, gaps, faults),
  );
  const starvedFrames = starvedLosses.reduce(
    (sum, loss) => sum + loss.last - loss.first + 1 - loss.unavailableFrames,
    0,
  );
  return {
    recording,
    reported,
    report,
    offeredSeconds: offeredFrames / FRAME_CODE.fps,
    starvedLosses,
    lostToStarvationSeconds: starvedFrames / FRAME_CODE.fps,
    starvation,
    faults,
    content: scoreContentAlarms(contentAlarms, contentFault, window.to, CONTENT_ALARM_SECONDS),
    ...scoreGaps(gaps, report.holes, faults),
  };
}

const round = (value: number) => Math.round(value * 100) / 100;
/** The largest of the values there are, rounded; null when there are none. */
const maxOf = (values: (number | null)[]) => {
  const present = values.filter((v) => v !== null);
  return present.length > 0 ? round(Math.max(...present)) : null;
};

/** The stretches of frames the origin offered and the recording lacks, a starvation's said losses aside. */
function ownLosses(s: Scored): Loss[] {
  return s.report.losses.filter(
    (loss) => loss.unavailableFrames < loss.last - loss.first + 1 && !s.starvedLosses.includes(loss),
  );
}

/** What a starved recording's text says of its starvation: when, how hard, ffmpeg's speed as reported, and what it cost. */
function describeStarvation(s: Scored, starvation: StarvationSpan, since: (at: number) => number): string {
  const seconds = (starvation.to - starvation.from) / 1000;
  const cpu = starvation.ffmpegCpuSeconds;
  const overloaded = s.reported.gaps.filter((gap) => gap.cause === 'recorder_overloaded');
  const speeds = overloaded.map((gap) => /ffmpeg (at \S+ real time|below real time)/.exec(gap.reason)?.[1] ?? '?');
  const said = overloaded.reduce((sum, gap) => sum + (gap.content_lost_seconds ?? 0), 0);
  const where = s.starvedLosses.map((l) => `${since(l.broadcastFrom)}-${since(l.broadcastTo)}`).join(', ');
  return [
    `  starved: ffmpeg (a transcode to ${STARVED_FRAME_SIZE.width}x${STARVED_FRAME_SIZE.height}) held at ${starvation.fault.cpuPercent}% of a CPU ${since(starvation.from)}-${since(starvation.to)} s into the window, where it had ${round(cpu)} s of CPU (${round((100 * cpu) / seconds)}%)`,
    `ffmpeg speed reported: ${speeds.join(', ') || 'none'}`,
    `lost to starvation ${round(s.lostToStarvationSeconds)} s${where ? ` at ${where}` : ''}`,
    `recorder_overloaded gaps say ${round(said)} s lost`,
  ].join('; ');
}

function describe(s: Scored): string {
  const fault = s.recording.plan.fault;
  const since = (at: number) => round((at - Date.parse(s.reported.started_at)) / 1000);
  const faultText = `${fault.kind} at ${round(fault.at)} s${'seconds' in fault ? ` for ${round(fault.seconds)} s` : ''}${'pause' in fault && fault.pause ? ` after a ${fault.pause} s pause` : ''} (origin time)`;
  const { plan } = s.recording;
  const late = s.recording.stream.latestMs?.() ?? 0;
  const stream =
    plan.source === 'radio'
      ? `a radio mount${late >= LATE_WORTH_SAYING_MS ? ` (its programme up to ${round(late / 1000)} s behind its schedule)` : ''}`
      : plan.source === 'rtmp'
        ? 'an RTMP origin'
        : `${plan.origin.playlistType === 'event' ? 'event' : `sliding ${plan.origin.dvrSegments}`} playlist`;
  return [
    `#${s.recording.index} ${s.reported.status}: ${faultText}, ${stream}`,
    `  offered ${round(s.offeredSeconds)} s, kept ${round(s.report.keptSeconds)} s, lost by us ${round(s.report.lostByUsSeconds - s.lostToStarvationSeconds)} s, repeated ${round(s.report.repeatedSeconds)} s, reordered ${round(s.report.reorderedSeconds)} s, unreadable frames ${s.report.unreadable}`,
    `  lost by us at (s into the window): ${
      ownLosses(s)
        .map(
          (l) =>
            `${since(l.broadcastFrom)}-${since(l.broadcastTo)}${l.unavailableFrames > 0 ? ` (${round(l.unavailableFrames / FRAME_CODE.fps)} s of it never offered)` : ''}`,
        )
        .join(', ') || 'nowhere'
    }`,
    ...s.faults
      .filter((f) => ['recorder_kill', 'radio_drop', 'rtmp_drop'].includes(f.fault.kind))
      .map(
        (f) =>
          `  ${f.fault.kind === 'recorder_kill' ? 'no recorder' : 'off the air'} ${since(f.from)}-${since(f.to)} s into the window`,
      ),
    ...(s.starvation ? [describeStarvation(s, s.starvation, since)] : []),
    `  true holes (s into the window): ${s.report.holes.map((h) => `${since(h.from)}-${since(h.to)}`).join(', ') || 'none'}`,
    `  reported gaps: ${s.reported.gaps.map((g) => `${since(Date.parse(g.start))}-${since(Date.parse(g.end))} ${g.cause ?? '(no cause)'} "${g.reason}"`).join('; ') || 'none'}`,
    `  misplaced ${s.misplaced.length}, wrong causes ${s.wrongCauses.length}, unreported holes of 10 s or more ${s.unreported.length}`,
    `  content: ${describeContent(s)}`,
  ].join('\n');
}

function describeContent(s: Scored): string {
  const { plan, stream } = s.recording;
  const fault = plan.source === 'hls' ? plan.origin.content : undefined;
  const since = (at: number) => round((at - Date.parse(s.reported.started_at)) / 1000);
  const faultText = !fault
    ? 'clean'
    : stream.content?.to
      ? `${fault.fault} ${since(stream.content.from)}-${since(stream.content.to)} s into the window`
      : fault.fault;
  const { content } = s;
  const own =
    content.raisedAfterSeconds === null
      ? fault
        ? `its alarm never raised`
        : ''
      : `${stream.content?.alarm} raised ${round(content.raisedAfterSeconds)} s after it began, ${content.resolvedAfterSeconds === null ? 'never resolved' : `resolved ${round(content.resolvedAfterSeconds)} s after it ended`}${content.late.length > 0 ? ' (late)' : ''}`;
  const falseText = content.falseAlarms.map((a) => `${a.kind} at ${since(a.raisedAt)} s`).join(', ');
  return [faultText, own, `false content alarms ${content.falseAlarms.length}${falseText ? ` (${falseText})` : ''}`]
    .filter(Boolean)
    .join('; ');
}

async function main(): Promise<void> {
  const count = positiveArg('recordings', values.recordings);
  const minutes = positiveArg('minutes', values.minutes);
  const seed = positiveArg('seed', values.seed);
  const windowSeconds = minutes * 60;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-fidelity-'));
  const dataDir = path.join(workDir, 'data');
  const webhook = await startWebhookReceiver();
  const streams: LabStream[] = [];
  let server: { server: RunningServer; api: Api } | undefined;
  const started = Date.now();
  const loadAtStart = os.loadavg();
  const { plans, limits } = starvationLimits(planStreams(new Random(seed), count, windowSeconds));
  try {
    console.error(`fidelity season: ${plans.length} recordings of ${minutes} min, seed ${seed}`);
    server = await startServer(dataDir, webhook.url);
    const { api } = server;
    const launching = Date.now();
    const recordings = await Promise.all(
      plans.map(async (plan, index): Promise<Recording> => {
        const stream = await startStream(plan, minutes);
        streams.push(stream);
        const { fault } = plan;
        const limit = limits.get(plan);
        const instanceId = await launch(
          api,
          stream,
          `fidelity${String(index + 1).padStart(2, '0')}`,
          windowSeconds,
          fault.kind === 'recorder_starved' ? STARVED_FRAME_SIZE : FRAME_SIZE,
        );
        const kill = fault.kind === 'recorder_kill' ? killRecorderAt(dataDir, instanceId, stream, fault) : undefined;
        const starvation =
          fault.kind === 'recorder_starved' && limit
            ? starveRecorderAt(dataDir, instanceId, stream, fault, limit)
            : undefined;
        // A kill or starvation that failed (no recorder to kill, none started again, no ffmpeg to starve) ends
        // the season when its recording is scored; until then it must not end the process as an unhandled rejection.
        kill?.catch(() => undefined);
        starvation?.catch(() => undefined);
        return { index: index + 1, plan, stream, instanceId, kill, starvation };
      }),
    );
    console.error(
      `server up in ${round((launching - started) / 1000)} s; ${recordings.length} recordings launched in ${round((Date.now() - launching) / 1000)} s; waiting for their windows to end`,
    );

    const ended = await waitFor(
      async () => {
        const listed = await listRecordings(api);
        const mine = recordings.map((r) => listed.find((l) => l.instance_id === r.instanceId));
        return mine.every((r) => r && r.status !== 'recording') ? (mine as ReportedRecording[]) : undefined;
      },
      'every recording to end',
      windowSeconds * 1000 + SETTLE_AFTER_WINDOW_MS,
      2000,
    );
    // Notifications of the ends arrive a moment later: wait until the webhook has been quiet a while.
    await webhook.quiet(QUIET_MS, 120_000);
    console.error(`recordings ended after ${round((Date.now() - started) / 1000)} s; reading them back`);

    const alarmList = await listAlarms(api);
    const scored: Scored[] = [];
    for (const [i, recording] of recordings.entries())
      scored.push(await score(api, recording, ended[i], alarmList, workDir));
    for (const s of scored) console.error(describe(s));
    const unreported = scored.reduce((sum, s) => sum + s.unreported.length, 0);
    const viaYtDlp: Recording[] = [];
    for (const recording of recordings) if (await askedYtDlp(api, recording.instanceId)) viaYtDlp.push(recording);
    for (const recording of viaYtDlp) console.error(`#${recording.index} turned to yt-dlp for a stream that is media`);
    const alarms = alarmLife(alarmList, new Set(recordings.map((r) => r.instanceId)), webhook.posts());
    for (const alarm of alarms.open) console.error(`open alarm of an ended recording: ${alarm.kind} ${alarm.message}`);
    for (const alarm of alarms.stallsNotResolvedOnce)
      console.error(`stall alarm not resolved exactly once: ${alarm.id} ${alarm.message}`);
    console.error(
      `unreported holes of 10 s or more: ${unreported}; webhook posts: ${webhook.requests.length}; wall time ${round((Date.now() - started) / 1000)} s`,
    );
    const sum = (pick: (s: Scored) => number) => round(scored.reduce((total, s) => total + pick(s), 0));
    const figures = JSON.stringify({
      recordings: scored.length,
      offered_seconds: sum((s) => s.offeredSeconds),
      kept_seconds: sum((s) => s.report.keptSeconds),
      lost_by_us_seconds: sum((s) => s.report.lostByUsSeconds - s.lostToStarvationSeconds),
      // Recordings whose transcode was starved of CPU, and what they lost inside their recorder_overloaded gaps.
      starved_transcodes: scored.filter((s) => s.starvation).length,
      lost_to_starvation_seconds: sum((s) => s.lostToStarvationSeconds),
      repeated_seconds: sum((s) => s.report.repeatedSeconds),
      misplaced_gaps: sum((s) => s.misplaced.length),
      wrong_causes: sum((s) => s.wrongCauses.length),
      notifications: webhook.requests.length,
      // Every recording has one fault.
      notifications_per_fault: round(webhook.requests.length / scored.length),
      // Alarms of the ended recordings still open (their outcomes' aside), and stall alarms not resolved exactly once: both 0.
      open_alarms: alarms.open.length,
      stalls_not_resolved_once: alarms.stallsNotResolvedOnce.length,
      // Recordings whose recorder took its stream for a page (yt-dlp): 0.
      via_yt_dlp: viaYtDlp.length,
      // Content faults drawn; of them, alarms never raised, and raised or resolved past the slack: all 0.
      content_faults: scored.filter((s) => s.recording.stream.content).length,
      content_alarms_missed: sum((s) => s.content.missed),
      content_alarms_late: sum((s) => s.content.late.length),
      // Content alarms other than a content fault's own, on any recording: 0.
      false_content_alarms: sum((s) => s.content.falseAlarms.length),
      content_raised_after_max_seconds: maxOf(scored.map((s) => s.content.raisedAfterSeconds)),
      content_resolved_after_max_seconds: maxOf(scored.map((s) => s.content.resolvedAfterSeconds)),
    });
    if (values.publish) {
      const command = `npm run fidelity -- --recordings ${count} --minutes ${minutes} --seed ${seed} --publish`;
      publishSection(
        RESULTS_FILE,
        'capture-fidelity',
        fidelitySection({
          command,
          measuredAt: new Date(started),
          loadAtStart,
          wallSeconds: round((Date.now() - started) / 1000),
          details: scored.map(describe),
          figures,
        }),
      );
    }
    console.log(figures);
  } finally {
    killRecorders(dataDir);
    await server?.server.stop();
    await Promise.all([...limits.values()].map(removeLimit));
    await Promise.all(streams.map((stream) => stream.close()));
    await webhook.close();
    if (values.keep) console.error(`work folder kept: ${workDir}`);
    else fs.rmSync(workDir, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});
