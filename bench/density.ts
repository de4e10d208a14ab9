/**
 * Recorder density: N copy-mode recorders (the built recorder, node alone, as the built server runs
 * it; the source fits the recording, so the recorder copies it after its one probe) beside N bare
 * `ffmpeg -c copy` writing the same MPEG-TS pieces of the same length, on the same live 720p HLS stream
 * on loopback, side by side in one run, and beside them N bare ffmpeg doing the recorder's whole job:
 * the same pieces plus the same content measurement (content-filters.ts: the audio's loudness, one key
 * frame every few seconds), so the cost of fetching and recording in Node is told apart from the cost
 * of what ffmpeg measures. Each side runs in a cgroup v2 of its own, so its CPU counts
 * every process of its trees, short-lived children included; the recorders' figure also holds their
 * join at window end, which is part of the job. PSS (proportional set size: shared pages divided
 * among the processes sharing them) is summed over each side's processes while recording.
 *
 *   npx tsx bench/density.ts [--recordings 5] [--seconds 60] [--publish]
 *
 * `--publish` writes its section of bench/RESULTS.md; `npm run bench` runs it with the defaults.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { contentInputOptions, contentOutput } from '../recorder/content-filters';
import { DEFAULT_CONTENT_ALARM_SECONDS } from '../recorder/protocol';
import { buildRecorder } from '../scripts/build-server';
import { recorderProcess, type RecorderProcess } from '../testkit/recorder-process';
import { pause } from '../testkit/wait';
import { makeSides, ownCpuSeconds, type Side } from './density-cgroup';
import { startDensityOrigin } from './density-origin';
import { median, positiveArg, round, withRatio, type BenchResult } from './lib';
import { publishSection, sectionText } from './published-sections';

const SEGMENT_SECONDS = 4;
/** The first PSS sample is taken once every process started and the recorders probed the source. */
const PSS_FROM_SECONDS = 15;
const SAMPLE_MS = 5000;

interface Measurement {
  recordings: number;
  seconds: number;
  load: { start: number[]; end: number[] };
  recorder: { cpuPerMinute: number; nodeCpuPerMinute: number; pssMb: number; statuses: string[] };
  bare: { cpuPerMinute: number; pssMb: number; pieces: number };
  /** Bare ffmpeg writing the same pieces and measuring the content as the recorder's ffmpeg does. */
  measuring: { cpuPerMinute: number; pssMb: number; pieces: number };
}

/**
 * Bare ffmpeg on the stream: its own HLS demuxer, the streams copied into pieces like the recorder's;
 * `measuring`: with the recorder's content measurement too (its readings written beside the pieces).
 */
function bareFfmpeg(url: string, folder: string, cgroup: string, measuring: boolean): ChildProcess {
  fs.mkdirSync(folder, { recursive: true });
  const args = [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin', ...(measuring ? contentInputOptions(true) : [])],
    ...['-i', url, '-map', '0:v:0?', '-map', '0:a:0?', '-c', 'copy'],
    ...['-f', 'segment', '-segment_time', String(SEGMENT_SECONDS), '-segment_format', 'mpegts'],
    ...['-reset_timestamps', '1', '-y', path.join(folder, 'piece-%05d.ts')],
    ...(measuring ? contentOutput(true, path.join(folder, 'readings.loudness'), DEFAULT_CONTENT_ALARM_SECONDS) : []),
  ];
  return spawn('/bin/sh', ['-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', cgroup, 'ffmpeg', ...args], {
    stdio: 'ignore',
  });
}

export async function measure(recordings: number, seconds: number): Promise<Measurement> {
  const loadStart = os.loadavg().map((l) => round(l));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'density-'));
  // Published from before the window to well after it: the recorders start a few segments behind the live edge.
  const origin = await startDensityOrigin(seconds + 60);
  const built = await buildRecorder(path.join(work, 'recorder'));
  const { sides, remove } = makeSides(['recorders', 'bare', 'measuring']);
  const [recorderSide, bareSide, measuringSide] = sides as [Side, Side, Side];
  const recorders: RecorderProcess[] = [];
  const bare: ChildProcess[] = [];
  const measuring: ChildProcess[] = [];
  try {
    for (let i = 0; i < recordings; i++)
      recorders.push(
        recorderProcess({
          url: origin.url,
          seconds,
          width: origin.width,
          height: origin.height,
          built,
          cgroup: recorderSide.dir,
          settings: { segmentSeconds: SEGMENT_SECONDS },
        }),
      );
    const windowEnd = Date.parse(recorders.at(-1)?.config.windowEnd ?? '');
    for (const recorder of recorders) recorder.start();
    for (let i = 0; i < recordings; i++) {
      bare.push(bareFfmpeg(origin.url, path.join(work, `bare-${i}`), bareSide.dir, false));
      measuring.push(bareFfmpeg(origin.url, path.join(work, `measuring-${i}`), measuringSide.dir, true));
    }
    const ffmpegs = [...bare, ...measuring];
    const ffmpegsExited = ffmpegs.map((child) => new Promise((resolve) => child.once('exit', resolve)));

    const pss = { recorders: [] as number[], bare: [] as number[], measuring: [] as number[] };
    const nodeCpu = new Map<number, number>();
    const started = Date.now();
    while (Date.now() < windowEnd - 2000) {
      await pause(Math.min(SAMPLE_MS, windowEnd - 2000 - Date.now()));
      for (const recorder of recorders) {
        const pid = recorder.state()?.recorderPid;
        const cpu = pid ? ownCpuSeconds(pid) : null;
        if (pid && cpu !== null) nodeCpu.set(pid, cpu);
      }
      if (Date.now() - started < PSS_FROM_SECONDS * 1000) continue;
      pss.recorders.push(recorderSide.pssMb());
      pss.bare.push(bareSide.pssMb());
      pss.measuring.push(measuringSide.pssMb());
    }
    await pause(Math.max(0, windowEnd - Date.now()));
    for (const child of ffmpegs) child.kill('SIGINT');
    await Promise.all(ffmpegsExited);
    const states = await Promise.all(recorders.map((r) => r.finished(120_000)));
    // Their last children (the join's ffmpeg) are reaped by then: the cgroups hold every CPU second.
    const minutes = (recordings * seconds) / 60;
    const pieces = (side: string) =>
      bare.reduce(
        (sum, _, i) => sum + fs.readdirSync(path.join(work, `${side}-${i}`)).filter((n) => n.endsWith('.ts')).length,
        0,
      );
    return {
      recordings,
      seconds,
      load: { start: loadStart, end: os.loadavg().map((l) => round(l)) },
      recorder: {
        cpuPerMinute: recorderSide.cpuSeconds() / minutes,
        nodeCpuPerMinute: [...nodeCpu.values()].reduce((a, b) => a + b, 0) / minutes,
        pssMb: median(pss.recorders) / recordings,
        statuses: states.map((s) => `${s.outcome?.status} ${s.coverage?.coveredSeconds ?? 0}/${seconds} s`),
      },
      bare: {
        cpuPerMinute: bareSide.cpuSeconds() / minutes,
        pssMb: median(pss.bare) / recordings,
        pieces: pieces('bare'),
      },
      measuring: {
        cpuPerMinute: measuringSide.cpuSeconds() / minutes,
        pssMb: median(pss.measuring) / recordings,
        pieces: pieces('measuring'),
      },
    };
  } finally {
    for (const child of [...bare, ...measuring])
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const recorder of recorders) await recorder.kill();
    // Children a killed recorder left (its ffmpeg) end here, by their ids, before the cgroups go.
    for (const pid of sides.flatMap((side) => side.pids())) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // exited since it was listed
      }
    }
    while (sides.some((side) => side.pids().length > 0)) await pause(100);
    remove();
    for (const recorder of recorders) recorder.remove();
    await origin.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function results(m: Measurement): BenchResult[] {
  const what = `${m.recordings} copy recorders vs ${m.recordings} bare ffmpeg -c copy, 720p loopback HLS, ${SEGMENT_SECONDS} s pieces, ${m.seconds} s windows`;
  const failed = m.recorder.statuses.filter((s) => !s.startsWith('captured'));
  if (failed.length) throw new Error(`recordings not captured (${failed.join('; ')}): no density figure for them`);
  return [
    withRatio({
      name: `Recorder density: CPU per recorded minute (${what})`,
      figure: round(m.recorder.cpuPerMinute, 3),
      unit: 'CPU-s',
      baseline: round(m.bare.cpuPerMinute, 3),
      baselineLabel: 'bare ffmpeg -c copy, same pieces',
      budget: 'at most 1.5x the baseline',
      withinBudget: m.recorder.cpuPerMinute <= 1.5 * m.bare.cpuPerMinute,
    }),
    withRatio({
      name: 'Recorder density: copy recordings one core holds, by CPU',
      figure: round(60 / m.recorder.cpuPerMinute, 1),
      unit: 'recordings',
      baseline: round(60 / m.bare.cpuPerMinute, 1),
      baselineLabel: 'bare ffmpeg -c copy',
      budget: 'at least 200',
      withinBudget: 60 / m.recorder.cpuPerMinute >= 200,
    }),
    withRatio({
      name: 'Recorder density: PSS per copy recording (median while recording)',
      figure: round(m.recorder.pssMb, 1),
      unit: 'MB',
      baseline: round(m.bare.pssMb, 1),
      baselineLabel: 'bare ffmpeg -c copy',
      budget: 'at most 2x the baseline',
      withinBudget: m.recorder.pssMb <= 2 * m.bare.pssMb,
    }),
    withRatio({
      name: 'Recorder density: CPU per recorded minute against bare ffmpeg doing the same job',
      figure: round(m.recorder.cpuPerMinute, 3),
      unit: 'CPU-s',
      baseline: round(m.measuring.cpuPerMinute, 3),
      baselineLabel: 'bare ffmpeg -c copy, same pieces, same content measurement',
    }),
    withRatio({
      name: 'Recorder density: PSS per copy recording against bare ffmpeg doing the same job',
      figure: round(m.recorder.pssMb, 1),
      unit: 'MB',
      baseline: round(m.measuring.pssMb, 1),
      baselineLabel: 'bare ffmpeg -c copy, same pieces, same content measurement',
    }),
    {
      name: "Recorder density: the recorder's own Node process, CPU per recorded minute",
      figure: round(m.recorder.nodeCpuPerMinute, 3),
      unit: 'CPU-s',
    },
  ];
}

export async function run(): Promise<BenchResult[]> {
  return results(await measure(5, 60));
}

function section(m: Measurement, figures: BenchResult[], command: string): string {
  return sectionText('recorder-density', [
    '## Recorder density (copy mode, beside bare ffmpeg)',
    '',
    `Measured by \`${command}\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, load average ${m.load.start.join(', ')} at its start, ${m.load.end.join(', ')} at its end.`,
    `${m.recordings} recorders and ${m.recordings} bare \`ffmpeg -c copy\` record the same live 720p HLS stream on loopback for ${m.seconds} s each, side by side;`,
    'each side in a cgroup v2 of its own, so CPU counts every process of its trees (short-lived ones included), and the',
    "recorders' figure holds their join at window end. PSS is the median over the window of the side's summed PSS, per recording.",
    '',
    '| figure | recorder | bare ffmpeg | ratio | budget | within budget |',
    '|---|---|---|---|---|---|',
    ...figures.map(
      (r) =>
        `| ${r.name.replace(/^Recorder density: /, '').replace(/ \(.*\)$/, '')} | ${r.figure} ${r.unit} | ${r.baseline === undefined ? '' : `${r.baseline} ${r.unit}`} | ${r.ratio ?? ''} | ${r.budget ?? ''} | ${r.withinBudget === undefined ? '' : r.withinBudget ? 'yes' : '**no**'} |`,
    ),
    '',
    `The rows "against bare ffmpeg doing the same job" compare with ${m.recordings} more bare ffmpeg beside them that also measure the content`,
    "as the recorder's ffmpeg does (its loudness, one key frame every few seconds): what is left is the recorder's Node process",
    '(fetching the stream, its ledger and state) and its source check and join.',
    '',
    `Recordings: ${m.recorder.statuses.join('; ')}. Bare ffmpeg wrote ${m.bare.pieces} pieces, measuring ${m.measuring.pieces}.`,
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      recordings: { type: 'string', default: '5' },
      seconds: { type: 'string', default: '60' },
      publish: { type: 'boolean', default: false },
    },
  });
  const recordings = positiveArg('recordings', values.recordings);
  const seconds = positiveArg('seconds', values.seconds);
  const m = await measure(recordings, seconds);
  process.stdout.write(`${JSON.stringify(m, null, 2)}\n`);
  const figures = results(m);
  for (const r of figures)
    process.stdout.write(`${r.name}: ${r.figure} ${r.unit}${r.ratio === undefined ? '' : ` (ratio ${r.ratio})`}\n`);
  if (values.publish) {
    const command = `npx tsx bench/density.ts --recordings ${recordings} --seconds ${seconds} --publish`;
    publishSection(
      path.join(path.dirname(fileURLToPath(import.meta.url)), 'RESULTS.md'),
      'recorder-density',
      section(m, figures, command),
    );
  }
  process.exit(0);
}
