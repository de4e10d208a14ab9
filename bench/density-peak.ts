/**
 * A Friday peak under CPU contention: N recorders (the built recorder, node alone, as the built server
 * runs it) beside N bare ffmpeg doing the same job, on the same live 720p HLS stream on loopback, with
 * busy loops beside them, everything pinned to the same CPUs, in one run. What each side keeps of its
 * window is measured from its media, by the same rule: the recorder's joined file and bare ffmpeg's
 * pieces, each read from its own timestamps. Opt-in (not part of `npm run bench`): it saturates the
 * CPUs it is given for the whole window.
 *
 *   npx tsx bench/density-peak.ts [--recordings 20] [--seconds 120] [--busy 2] [--cpus 0] [--transcode] [--publish]
 *
 * Copy mode (the default): the stream fits the recording, the recorders copy it, bare ffmpeg is
 * `ffmpeg -c copy` into the same 4 s pieces. `--transcode`: the recordings are 640x360, the recorders
 * transcode, and bare ffmpeg runs the recorder's own arguments on the network stream.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildFfmpegArgs } from '../recorder/ffmpeg-args';
import { buildRecorder } from '../scripts/build-server';
import { recorderProcess, type RecorderProcess } from '../testkit/recorder-process';
import { makeSides, type Side } from './density-cgroup';
import { DENSITY_FPS, startDensityOrigin } from './density-origin';
import { median, positiveArg, round } from './lib';
import { publishSection, sectionText } from './published-sections';

const SEGMENT_SECONDS = 4;
const TRANSCODED = { width: 640, height: 360 };

interface SideFigures {
  /** Seconds of media each recording holds, clipped to its window. */
  kept: number[];
  cpuPerMinute: number;
}

interface PeakMeasurement {
  recordings: number;
  seconds: number;
  busy: number;
  cpus: string;
  mode: 'copy' | 'transcode';
  load: { start: number[]; end: number[] };
  recorder: SideFigures & {
    statuses: string[];
    ffmpegRuns: number[];
    /** Content lost, summed over the recordings, by the cause their gaps give. */
    lostByCause: Record<string, number>;
    /** Seconds from the window's end to each recorder's outcome (its queue worked off, the join). */
    finishedAfter: number[];
  };
  bare: SideFigures;
}

/**
 * Seconds of picture a file holds: its video frames, counted (ffprobe reads the packets and decodes
 * nothing), at the programme's rate. Read from timestamps instead, a piece in which bare ffmpeg's HLS
 * reader skipped segments it had fallen too far behind for counted the skipped seconds as kept.
 */
function mediaSeconds(file: string): number {
  try {
    const out = execFileSync('ffprobe', [
      ...['-v', 'error', '-select_streams', 'v:0', '-count_packets'],
      ...['-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0', file],
    ]);
    // An MPEG-TS file lists its stream twice (under its program, then alone): the first count is the one.
    return (Number(out.toString().trim().split(/\s+/)[0]) || 0) / DENSITY_FPS;
  } catch {
    return 0;
  }
}

/** Bare ffmpeg on the stream: its own HLS demuxer, the same output as the recorder's (copy: the same pieces). */
function bareFfmpeg(
  url: string,
  folder: string,
  cgroup: string,
  transcode: RecorderProcess['config'] | null,
): ChildProcess {
  fs.mkdirSync(folder, { recursive: true });
  const pieces = path.join(folder, 'piece-%05d.ts');
  const args = transcode
    ? buildFfmpegArgs(transcode, url, { piecePattern: pieces, listPath: path.join(folder, 'pieces.list') })
    : [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', url, '-map', '0:v:0?', '-map', '0:a:0?'],
        ...['-c', 'copy', '-f', 'segment', '-segment_time', String(SEGMENT_SECONDS), '-segment_format', 'mpegts'],
        ...['-reset_timestamps', '1', '-y', pieces],
      ];
  return spawn('/bin/sh', ['-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', cgroup, 'ffmpeg', ...args], {
    stdio: 'ignore',
  });
}

export async function measurePeak(options: {
  recordings: number;
  seconds: number;
  busy: number;
  cpus: string;
  transcode: boolean;
}): Promise<PeakMeasurement> {
  const { recordings, seconds, busy, cpus, transcode } = options;
  // Everything this process starts from here on (origin aside, which lives in it) runs on these CPUs.
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
  const loadStart = os.loadavg().map((l) => round(l));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'density-peak-'));
  const origin = await startDensityOrigin(seconds + 60);
  const built = await buildRecorder(path.join(work, 'recorder'));
  const { sides, remove } = makeSides(['recorders', 'bare']);
  const [recorderSide, bareSide] = sides as [Side, Side];
  const size = transcode ? TRANSCODED : { width: origin.width, height: origin.height };
  const recorders: RecorderProcess[] = [];
  const bare: ChildProcess[] = [];
  const loops: ChildProcess[] = [];
  try {
    for (let i = 0; i < busy; i++) loops.push(spawn('/bin/sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
    for (let i = 0; i < recordings; i++)
      recorders.push(
        recorderProcess({
          url: origin.url,
          seconds,
          ...size,
          built,
          cgroup: recorderSide.dir,
          settings: { segmentSeconds: SEGMENT_SECONDS },
        }),
      );
    const windowEnd = Date.parse(recorders[0].config.windowEnd);
    for (const recorder of recorders) recorder.start();
    const sameJob = transcode ? { ...recorders[0].config, sourceAsIs: false } : null;
    for (let i = 0; i < recordings; i++)
      bare.push(bareFfmpeg(origin.url, path.join(work, `bare-${i}`), bareSide.dir, sameJob));
    const bareExited = bare.map((child) => new Promise((resolve) => child.once('exit', resolve)));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, windowEnd - Date.now())));
    for (const child of bare) child.kill('SIGINT');
    await Promise.all(bareExited);
    // The contention goes on while the recorders work off what they queued: it does not end with a window.
    const states = await Promise.all(recorders.map((r) => r.finished(600_000)));
    for (const loop of loops) loop.kill('SIGKILL');
    const lostByCause: Record<string, number> = {};
    for (const gap of states.flatMap((s) => s.coverage?.gaps ?? []))
      lostByCause[gap.cause] = round((lostByCause[gap.cause] ?? 0) + gap.content_lost_seconds, 1);
    const minutes = (recordings * seconds) / 60;
    const bareKept = bare.map((_, i) => {
      const folder = path.join(work, `bare-${i}`);
      const total = fs
        .readdirSync(folder)
        .filter((name) => name.endsWith('.ts'))
        .reduce((sum, name) => sum + mediaSeconds(path.join(folder, name)), 0);
      return Math.min(seconds, total);
    });
    return {
      recordings,
      seconds,
      busy,
      cpus,
      mode: transcode ? 'transcode' : 'copy',
      load: { start: loadStart, end: os.loadavg().map((l) => round(l)) },
      recorder: {
        kept: recorders.map((r) => Math.min(seconds, mediaSeconds(r.config.outputPath))),
        cpuPerMinute: recorderSide.cpuSeconds() / minutes,
        statuses: states.map((s) => s.outcome?.status ?? 'none'),
        ffmpegRuns: states.map((s) => s.runs.length),
        lostByCause,
        finishedAfter: states.map((s) => round((Date.parse(s.endedAt ?? '') - windowEnd) / 1000, 1)),
      },
      bare: { kept: bareKept, cpuPerMinute: bareSide.cpuSeconds() / minutes },
    };
  } finally {
    for (const loop of loops) if (loop.exitCode === null && loop.signalCode === null) loop.kill('SIGKILL');
    for (const child of bare) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const recorder of recorders) await recorder.kill();
    // Children a killed recorder left (its ffmpeg) end here, by their ids, before the cgroups go.
    for (const pid of [...recorderSide.pids(), ...bareSide.pids()]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // exited since it was listed
      }
    }
    while (recorderSide.pids().length + bareSide.pids().length > 0)
      await new Promise((resolve) => setTimeout(resolve, 100));
    remove();
    for (const recorder of recorders) recorder.remove();
    await origin.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The figures of one run, as lines of RESULTS.md. */
function summary(m: PeakMeasurement): string[] {
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const full = (kept: number[]) => kept.filter((k) => k >= 0.99 * m.seconds).length;
  const row = (name: string, side: SideFigures) =>
    `| ${name} | ${round(sum(side.kept), 1)} s | ${round(Math.min(...side.kept), 1)} s | ${round(median(side.kept), 1)} s | ${full(side.kept)} of ${m.recordings} | ${round(side.cpuPerMinute, 3)} CPU-s |`;
  const runs = m.recorder.ffmpegRuns;
  const lost = Object.entries(m.recorder.lostByCause)
    .map(([cause, seconds]) => `${cause} ${seconds} s`)
    .join(', ');
  return [
    `${m.recordings} ${m.mode} recorders beside ${m.recordings} bare ffmpeg (${m.mode === 'copy' ? '`-c copy`' : "the recorder's own arguments"}), ${m.seconds} s windows, with ${m.busy} busy loop(s), all on CPU(s) ${m.cpus}; load average ${m.load.start.join(', ')} at its start, ${m.load.end.join(', ')} at its end.`,
    '',
    '| side | media kept, all recordings | least kept | median kept | ≥ 99% of the window | CPU per recorded minute |',
    '|---|---|---|---|---|---|',
    row('recorders', m.recorder),
    row('bare ffmpeg', m.bare),
    '',
    `Recorders keep ${round(sum(m.recorder.kept) / Math.max(1, sum(m.bare.kept)), 3)}x what bare ffmpeg keeps. Outcomes: ${m.recorder.statuses.filter((s) => s === 'captured').length} captured of ${m.recordings}; ffmpeg runs per recorder ${Math.min(...runs)}-${Math.max(...runs)}; content lost by gap cause: ${lost || 'none'}; outcomes written ${Math.min(...m.recorder.finishedAfter)}-${Math.max(...m.recorder.finishedAfter)} s after the window's end (the queue worked off under the same contention, then the join).`,
    '',
    "Media kept is each file's video frames counted, at 25 a second, up to the window's length: a segment skipped counts nothing whatever the timestamps say. Bare ffmpeg is stopped (SIGINT) at the window's end; the recorders work off their queue after it (at most `RECORDER_OVERLOAD_SECONDS` of segments, 60 s), with the busy loops still running.",
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      recordings: { type: 'string', default: '20' },
      seconds: { type: 'string', default: '120' },
      busy: { type: 'string', default: '2' },
      cpus: { type: 'string', default: '0' },
      transcode: { type: 'boolean', default: false },
      publish: { type: 'boolean', default: false },
    },
  });
  const m = await measurePeak({
    recordings: positiveArg('recordings', values.recordings),
    seconds: positiveArg('seconds', values.seconds),
    busy: Number(values.busy),
    cpus: values.cpus,
    transcode: values.transcode,
  });
  process.stdout.write(`${JSON.stringify(m)}\n${summary(m).join('\n')}\n`);
  if (values.publish) {
    const command = `npx tsx bench/density-peak.ts --recordings ${m.recordings} --seconds ${m.seconds} --busy ${m.busy} --cpus ${m.cpus}${values.transcode ? ' --transcode' : ''} --publish`;
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');
    const name = m.mode === 'copy' ? 'recorder-peak-copy' : 'recorder-peak-transcode';
    publishSection(
      file,
      name,
      sectionText(name, [
        `## Recorder peak under CPU contention (${m.mode} mode, beside bare ffmpeg)`,
        '',
        `Measured by \`${command}\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}.`,
        ...summary(m),
      ]),
    );
  }
  process.exit(0);
}
