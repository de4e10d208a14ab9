/**
 * What measuring the content costs (docs/operations/content-assurance.md): N recorders that measure
 * beside N that do not (`measureContent: false`, everything else the same: the built recorder, node
 * alone), on the same live 720p HLS stream on loopback, side by side in one run, each side in a
 * cgroup v2 of its own so every process of its trees is counted (the join at window end included).
 * The origin fits a 1280x720 recording, so the recorders copy; `--transcode` records at 854x480, so
 * both sides transcode. The programme is never silent, still or black: what the measuring side finds
 * of those is false, and `--seconds 1800` is the issue's 30-minute clean run.
 *
 *   npx tsx bench/content-cost.ts [--recordings 4] [--seconds 60] [--transcode] [--publish]
 *
 * Opt-in: `npm run bench` does not run it. `--publish` writes its section of bench/RESULTS.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildRecorder } from '../scripts/build-server';
import { recorderProcess, type RecorderProcess } from '../testkit/recorder-process';
import { pause } from '../testkit/wait';
import { makeSides, type Side } from './density-cgroup';
import { startDensityOrigin } from './density-origin';
import { positiveArg, round } from './lib';
import { publishSection, sectionText } from './published-sections';

interface SideFigures {
  cpuPerMinute: number;
  statuses: string[];
}

/**
 * What the measuring recorders found in the bench's programme, which is never silent, still or black:
 * every second of a condition is a false one, and one lasting the default threshold a false alarm.
 */
interface FalseConditions {
  silentSeconds: number;
  frozenSeconds: number;
  blackSeconds: number;
  /** The longest silence, frozen or black time of any recorder. */
  longestSeconds: number;
  integratedLufs: (number | null)[];
}
/** CONTENT_ALARM_SECONDS' default. */
const ALARM_SECONDS = 120;

interface Measurement {
  recordings: number;
  seconds: number;
  mode: 'copy' | 'transcode';
  load: { start: number[]; end: number[] };
  measuring: SideFigures;
  plain: SideFigures;
  falseConditions: FalseConditions;
}

async function measure(recordings: number, seconds: number, transcode: boolean): Promise<Measurement> {
  const loadStart = os.loadavg().map((l) => round(l));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'content-cost-'));
  const origin = await startDensityOrigin(seconds + 60);
  const built = await buildRecorder(path.join(work, 'recorder'));
  const { sides, remove } = makeSides(['measuring', 'plain']);
  const recorders: { side: Side; recorder: RecorderProcess }[] = [];
  try {
    // Alternated, so neither side starts first on the busier machine.
    for (let i = 0; i < recordings * 2; i++) {
      const side = sides[i % 2] as Side;
      const recorder = recorderProcess({
        url: origin.url,
        seconds,
        width: transcode ? 854 : origin.width,
        height: transcode ? 480 : origin.height,
        built,
        cgroup: side.dir,
        measureContent: side === sides[0],
        settings: { segmentSeconds: 4 },
      });
      recorders.push({ side, recorder });
    }
    for (const { recorder } of recorders) recorder.start();
    const states = await Promise.all(recorders.map(({ recorder }) => recorder.finished((seconds + 180) * 1000)));
    const minutes = (recordings * seconds) / 60;
    const figures = (side: Side): SideFigures => ({
      cpuPerMinute: side.cpuSeconds() / minutes,
      statuses: recorders
        .map(({ side: s }, i) => (s === side ? states[i] : null))
        .filter((state) => state !== null)
        .map((state) => `${state.outcome?.status} ${state.coverage?.coveredSeconds ?? 0}/${seconds} s`),
    });
    const contents = recorders.flatMap(({ side }, i) => (side === sides[0] ? [states[i]?.content ?? null] : []));
    const sum = (pick: (c: NonNullable<(typeof contents)[number]>) => number) =>
      round(contents.reduce((total, c) => total + (c ? pick(c) : 0), 0));
    return {
      recordings,
      seconds,
      mode: transcode ? 'transcode' : 'copy',
      falseConditions: {
        silentSeconds: sum((c) => c.silentSeconds),
        frozenSeconds: sum((c) => c.frozenSeconds),
        blackSeconds: sum((c) => c.blackSeconds),
        longestSeconds: Math.max(
          0,
          ...contents.map((c) => (c ? Math.max(c.longestSilenceSeconds, c.frozenSeconds, c.blackSeconds) : 0)),
        ),
        integratedLufs: contents.map((c) => c?.integratedLufs ?? null),
      },
      load: { start: loadStart, end: os.loadavg().map((l) => round(l)) },
      measuring: figures(sides[0] as Side),
      plain: figures(sides[1] as Side),
    };
  } finally {
    for (const { recorder } of recorders) await recorder.kill();
    for (const side of sides)
      for (const pid of side.pids()) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // exited since it was listed
        }
      }
    while (sides.some((side) => side.pids().length > 0)) await pause(100);
    remove();
    for (const { recorder } of recorders) recorder.remove();
    await origin.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function lines(m: Measurement, command: string): string[] {
  const f = m.falseConditions;
  const ratio = round(m.measuring.cpuPerMinute / m.plain.cpuPerMinute, 3);
  return [
    `### Content measurement, ${m.mode} mode`,
    '',
    `Measured by \`${command}\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} cores, Node ${process.version}, load average ${m.load.start.join(', ')} at its start, ${m.load.end.join(', ')} at its end.`,
    '',
    '| figure | measuring | not measuring | ratio | budget | within budget |',
    '|---|---|---|---|---|---|',
    `| CPU per recorded minute | ${round(m.measuring.cpuPerMinute, 3)} CPU-s | ${round(m.plain.cpuPerMinute, 3)} CPU-s | ${ratio} | at most 1.2x | ${ratio <= 1.2 ? 'yes' : '**no**'} |`,
    '',
    `Measuring: ${m.measuring.statuses.join('; ')}. Not measuring: ${m.plain.statuses.join('; ')}.`,
    '',
    `On this programme (a moving test picture and a tone, never silent, still or black) the measuring recorders found ${f.silentSeconds} s silent, ${f.frozenSeconds} s frozen and ${f.blackSeconds} s black in all, the longest ${f.longestSeconds} s: ${f.longestSeconds >= ALARM_SECONDS ? '**a false alarm**' : 'no false alarm'} at the default ${ALARM_SECONDS} s threshold. Integrated loudness: ${f.integratedLufs.map((l) => (l === null ? 'none' : `${l} LUFS`)).join(', ')}.`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      recordings: { type: 'string', default: '4' },
      seconds: { type: 'string', default: '60' },
      transcode: { type: 'boolean', default: false },
      publish: { type: 'boolean', default: false },
    },
  });
  const recordings = positiveArg('recordings', values.recordings);
  const seconds = positiveArg('seconds', values.seconds);
  const m = await measure(recordings, seconds, values.transcode);
  process.stdout.write(`${JSON.stringify(m, null, 2)}\n`);
  const command = `npx tsx bench/content-cost.ts --recordings ${recordings} --seconds ${seconds}${values.transcode ? ' --transcode' : ''} --publish`;
  const text = lines(m, command);
  process.stdout.write(`${text.join('\n')}\n`);
  if (values.publish) {
    const results = path.join(path.dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');
    publishSection(results, `content-cost-${m.mode}`, sectionText(`content-cost-${m.mode}`, text));
  }
  process.exit(0);
}
