/**
 * A recorder's resident memory while a hostile origin serves it one segment of 768 MiB that claims to
 * last an hour, among the ordinary segments of a live stream. Two built recorders, started as the
 * local driver starts them (node alone, with its heap limit), record the same live HLS stream on
 * loopback side by side: one through the hostile origin, one straight from the stream (the same work
 * without the hostile segment). Each recorder's VmRSS and VmHWM (its peak) are read from /proc every
 * 100 ms; the recording's log, outcome and gaps say what became of the segment.
 *
 *   npx tsx bench/hostile-segment.ts [--seconds 40] [--publish]
 *
 * `--publish` writes its section of bench/RESULTS.md.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { RecorderState } from '../recorder/recorder-state';
import { buildRecorder } from '../scripts/build-server';
import { RECORDER_HEAP_LIMIT } from '../server/capture/local/recorder-runtime';
import { startHlsSource } from '../testkit/capture';
import { recorderProcess, type RecorderProcess } from '../testkit/recorder-process';
import { pause } from '../testkit/wait';
import { positiveArg, round } from './lib';
import { publishSection, sectionText } from './published-sections';

const MIB = 1024 * 1024;
const HUGE_BYTES = 768 * MIB;
/** The hostile segment is the one listed this many segments after the newest when the recorder starts. */
const HUGE_AFTER = 6;
const SAMPLE_MS = 100;

interface HostileOrigin {
  url: string;
  /** Bytes of the hostile segment the recorder took before it hung up. */
  hugeSent(): number;
  close(): Promise<void>;
}

/**
 * In front of the live stream: every playlist as the stream has it, except that one segment is named
 * `huge<n>.ts` with `#EXTINF:3600`, and that name answers 768 MiB of MPEG-TS padding, chunked (no
 * Content-Length: the cap is met while reading, as a lying origin would make it), as fast as it is read.
 */
async function startHostileOrigin(sourceUrl: string): Promise<HostileOrigin> {
  const source = new URL(sourceUrl);
  let target: number | undefined;
  let sent = 0;
  const isUri = (line: string) => line !== '' && !line.startsWith('#');
  const rewrite = (playlist: string) => {
    const lines = playlist.split('\n');
    let sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1] ?? 0);
    target ??= sequence + lines.filter(isUri).length - 1 + HUGE_AFTER;
    for (let i = 1; i < lines.length; i++) {
      if (!isUri(lines[i]) || sequence++ !== target) continue;
      // The tag before a segment's URI is its #EXTINF.
      lines[i - 1] = '#EXTINF:3600.000,';
      lines[i] = `huge${target}.ts`;
    }
    return lines.join('\n');
  };
  const server = http.createServer((request, response) => {
    const name = (request.url ?? '/').split('?')[0];
    if (name.startsWith('/huge')) {
      response.writeHead(200, { 'content-type': 'video/mp2t' });
      const chunk = Buffer.alloc(MIB, 0x47);
      const more = () => {
        while (!response.destroyed && sent < HUGE_BYTES) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        if (sent >= HUGE_BYTES) response.end();
      };
      response.on('close', () => response.removeAllListeners('drain'));
      return more();
    }
    fetch(new URL(name, source))
      .then(async (answer) => {
        const type = answer.headers.get('content-type') ?? 'application/octet-stream';
        const body = name.endsWith('.m3u8')
          ? Buffer.from(rewrite(await answer.text()))
          : Buffer.from(await answer.arrayBuffer());
        response.writeHead(answer.status, { 'content-type': type }).end(body);
      })
      .catch(() => response.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${source.pathname}`,
    hugeSent: () => sent,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** VmRSS and VmHWM (the peak) of a process, in bytes, or undefined once it is gone. */
function memoryOf(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kib('VmRSS'), peak: kib('VmHWM') };
  } catch {
    return undefined;
  }
}

interface Side {
  peakMb: number;
  medianRssMb: number;
  state: RecorderState;
  refusals: string[];
}

interface Measurement {
  seconds: number;
  load: { start: number[]; end: number[] };
  hostile: Side;
  reference: Side;
  hugeSentMb: number;
}

export async function measure(seconds: number): Promise<Measurement> {
  const loadStart = os.loadavg().map((l) => round(l));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-segment-'));
  const source = await startHlsSource();
  const origin = await startHostileOrigin(source.url);
  const recorders: RecorderProcess[] = [];
  try {
    const built = await buildRecorder(path.join(work, 'recorder'));
    for (const url of [origin.url, source.url])
      recorders.push(
        recorderProcess({ url, seconds, width: 320, height: 240, built, nodeArgs: [RECORDER_HEAP_LIMIT] }),
      );
    for (const recorder of recorders) recorder.start();
    const samples = recorders.map(() => ({ rss: [] as number[], peak: 0 }));
    const windowEnd = Date.parse(recorders[0].config.windowEnd);
    while (Date.now() < windowEnd) {
      await pause(SAMPLE_MS);
      recorders.forEach((recorder, i) => {
        const pid = recorder.state()?.recorderPid;
        const memory = pid ? memoryOf(pid) : undefined;
        if (!memory) return;
        samples[i].rss.push(memory.rss);
        samples[i].peak = Math.max(samples[i].peak, memory.peak);
      });
    }
    const states = await Promise.all(recorders.map((recorder) => recorder.finished(120_000)));
    const sides = recorders.map((recorder, i): Side => {
      const sorted = [...samples[i].rss].sort((a, b) => a - b);
      return {
        peakMb: round(samples[i].peak / MIB, 1),
        medianRssMb: round((sorted[Math.floor(sorted.length / 2)] ?? 0) / MIB, 1),
        state: states[i],
        refusals: recorder
          .log()
          .split('\n')
          .filter((line) => /cap: refused/.test(line)),
      };
    });
    return {
      seconds,
      load: { start: loadStart, end: os.loadavg().map((l) => round(l)) },
      hostile: sides[0],
      reference: sides[1],
      hugeSentMb: round(origin.hugeSent() / MIB, 1),
    };
  } finally {
    for (const recorder of recorders) {
      await recorder.kill();
      recorder.remove();
    }
    await origin.close();
    await source.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const outcome = (state: RecorderState, seconds: number) =>
  `${state.outcome?.status ?? 'no outcome'} ${round(state.coverage?.coveredSeconds ?? 0, 1)}/${seconds} s`;

function section(m: Measurement, command: string): string {
  const gaps = (m.hostile.state.coverage?.gaps ?? []).map((gap) => gap.reason);
  return sectionText('hostile-segment', [
    '## A hostile segment of 768 MiB (recorder resident memory)',
    '',
    `Measured by \`${command}\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, load average ${m.load.start.join(', ')} at its start, ${m.load.end.join(', ')} at its end.`,
    `Two built recorders (node alone, \`${RECORDER_HEAP_LIMIT}\`, as the local driver starts them) record the same live 320x240 HLS stream on loopback`,
    `for ${m.seconds} s, side by side: one through an origin that lists one segment as \`#EXTINF:3600\` and answers it with 768 MiB (chunked, as fast as read),`,
    "one straight from the stream. Resident memory is each recorder's Node process, read from /proc every 100 ms; the peak is its VmHWM.",
    '',
    '| figure | hostile segment | same stream, no hostile segment | budget | within budget |',
    '|---|---|---|---|---|',
    `| peak resident memory (VmHWM) | ${m.hostile.peakMb} MB | ${m.reference.peakMb} MB | under 300 MB | ${m.hostile.peakMb < 300 ? 'yes' : '**no**'} |`,
    `| median resident memory over the window | ${m.hostile.medianRssMb} MB | ${m.reference.medianRssMb} MB |  |  |`,
    `| recording | ${outcome(m.hostile.state, m.seconds)} | ${outcome(m.reference.state, m.seconds)} |  |  |`,
    '',
    `The hostile origin sent ${m.hugeSentMb} MiB of the segment before the recorder hung up. Its log: ${m.hostile.refusals.length ? m.hostile.refusals.map((line) => `"${line.replace(/^\S+ /, '').trim()}"`).join('; ') : '(no refusal logged)'}.`,
    `Its gaps: ${gaps.length ? gaps.map((reason) => `"${reason}"`).join('; ') : 'none'}.`,
  ]);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { seconds: { type: 'string', default: '40' }, publish: { type: 'boolean' } },
  });
  const seconds = positiveArg('seconds', values.seconds);
  const m = await measure(seconds);
  const command = `npx tsx bench/hostile-segment.ts --seconds ${seconds}${values.publish ? ' --publish' : ''}`;
  const text = section(m, command);
  process.stdout.write(text);
  if (values.publish)
    publishSection(path.join(path.dirname(fileURLToPath(import.meta.url)), 'RESULTS.md'), 'hostile-segment', text);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
