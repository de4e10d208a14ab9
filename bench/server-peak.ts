/**
 * A Friday peak through the server, as production runs it: the built server with the local driver
 * launches N copy-mode recordings of one live 720p HLS stream on loopback (the launch route, 50 a
 * request), each of `--seconds`, while another operator's console, a process of its own
 * (bench/latency-probe.mjs), times a signed-in GET /api/instances/ five times a second from the first
 * launch until every recorder has finished. The server reads every recorder's state the whole time
 * (its reconciliation), so this is the console's list under the fleet's full load. Each recording's
 * outcome is its recorder's (state.json), what it kept is its joined file's seconds, read from its
 * timestamps. Opt-in (not part of `npm run bench`): it loads the machine for the whole window.
 *
 *   npx tsx bench/server-peak.ts [--recordings 100] [--seconds 120] [--publish]
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { INSTANCE_FILES, type RecorderConfig } from '../recorder/protocol';
import { readJson, type RecorderState } from '../recorder/recorder-state';
import { waitFor } from '../testkit/wait';
import { startDensityOrigin } from './density-origin';
import { percentile, positiveArg, round } from './lib';
import { publishSection, sectionText } from './published-sections';
import { call, scratchDataDir, signIn, startRealServer } from './servers';

const PER_REQUEST = 50;
/** The console's GETs: one every this many ms (five a second: several consoles polling), not back to back. */
const PROBE_EVERY_MS = 200;
const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'latency-probe.mjs');

interface Probe {
  stop(): Promise<{ at: number; ms: number }[]>;
}

/** The other operator: GETs `url` back to back, each timed and stamped with when it started. */
async function startProbe(url: string, token: string): Promise<Probe> {
  const child = spawn(process.execPath, [PROBE, url, token, '--stamped', `--every=${PROBE_EVERY_MS}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await waitFor(() => out.startsWith('ready\n') || undefined, 'the latency probe', 30_000, 20);
  return {
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      return JSON.parse(out.slice('ready\n'.length)) as { at: number; ms: number }[];
    },
  };
}

/** Seconds of media in an MP4, from its timestamps (ffprobe); 0 when it is missing or unreadable. */
function mp4Seconds(file: string): number {
  try {
    const out = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
    return Number(out.toString().trim()) || 0;
  } catch {
    return 0;
  }
}

interface Peak {
  recordings: number;
  seconds: number;
  load: { start: number[]; end: number[] };
  statuses: string[];
  kept: number[];
  gapCauses: string[];
  probe: { count: number; p50: number; p99: number; max: number; worstTenSecondP99: number };
}

export async function measureServerPeak(recordings: number, seconds: number): Promise<Peak> {
  const loadStart = os.loadavg().map((l) => round(l));
  const origin = await startDensityOrigin(seconds + 180);
  const dataDir = scratchDataDir();
  // The stream lives on loopback.
  const server = await startRealServer(dataDir, { ALLOW_PRIVATE_STREAM_HOSTS: '1' });
  try {
    const token = await signIn(server.baseUrl);
    const probe = await startProbe(`${server.baseUrl}/api/instances/`, await signIn(server.baseUrl));
    const ids: string[] = [];
    for (let start = 0; start < recordings; start += PER_REQUEST) {
      const configs = Array.from({ length: Math.min(PER_REQUEST, recordings - start) }, () => ({
        url: origin.url,
        duration: seconds,
        width: origin.width,
        height: origin.height,
      }));
      const launched = await call<{ data: { instances: { id: string }[]; failed: { error: string }[] } }>(
        server.baseUrl,
        token,
        'POST',
        '/api/instances/launch',
        { configs, max_workers: 10 },
      );
      if (launched.data.failed.length > 0) throw new Error(`launch failed: ${launched.data.failed[0].error}`);
      ids.push(...launched.data.instances.map((i) => i.id));
    }
    const dirOf = (id: string) => path.join(dataDir, 'instances', id);
    const stateOf = (id: string) => readJson<RecorderState>(path.join(dirOf(id), INSTANCE_FILES.state));
    await waitFor(
      () => ids.every((id) => stateOf(id)?.outcome) || undefined,
      'every recorder to finish',
      (seconds + 600) * 1000,
      1000,
    );
    const timings = await probe.stop();
    const states = ids.map((id) => stateOf(id) as RecorderState);
    const kept = ids.map((id) => {
      const config = readJson<RecorderConfig>(path.join(dirOf(id), INSTANCE_FILES.config)) as RecorderConfig;
      return Math.min(seconds, mp4Seconds(config.outputPath));
    });
    const ms = timings.map((t) => t.ms);
    const windows = new Map<number, number[]>();
    for (const t of timings)
      windows.set(Math.floor(t.at / 10_000), [...(windows.get(Math.floor(t.at / 10_000)) ?? []), t.ms]);
    return {
      recordings,
      seconds,
      load: { start: loadStart, end: os.loadavg().map((l) => round(l)) },
      statuses: states.map((s) => s.outcome?.status ?? 'none'),
      kept,
      gapCauses: [...new Set(states.flatMap((s) => s.coverage?.gaps.map((g) => g.cause) ?? []))],
      probe: {
        count: ms.length,
        p50: round(percentile(ms, 50), 1),
        p99: round(percentile(ms, 99), 1),
        max: round(Math.max(...ms), 1),
        worstTenSecondP99: round(Math.max(...[...windows.values()].map((w) => percentile(w, 99))), 1),
      },
    };
  } finally {
    await server.stop();
    await origin.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function summary(m: Peak): string[] {
  const full = m.kept.filter((k) => k >= 0.99 * m.seconds).length;
  const captured = m.statuses.filter((s) => s === 'captured').length;
  return [
    `${m.recordings} copy-mode recordings of ${m.seconds} s launched through the built server (local driver) at once, one live 720p stream on loopback;`,
    `load average ${m.load.start.join(', ')} at its start, ${m.load.end.join(', ')} at its end.`,
    '',
    '| figure | measured | budget | pass |',
    '|---|---|---|---|',
    `| recordings \`captured\` | ${captured} of ${m.recordings} | all | ${captured === m.recordings ? 'yes' : '**no**'} |`,
    `| recordings keeping ≥ 99% of their window | ${full} of ${m.recordings} (least ${round(Math.min(...m.kept), 1)} s) | all | ${full === m.recordings ? 'yes' : '**no**'} |`,
    `| signed-in GET /api/instances/ from another process, p99 over the whole peak (${m.probe.count} GETs, one every ${PROBE_EVERY_MS} ms) | ${m.probe.p99} ms (p50 ${m.probe.p50}, max ${m.probe.max}) | under 500 ms | ${m.probe.p99 < 500 ? 'yes' : '**no**'} |`,
    `| the same, p99 of the worst 10 s | ${m.probe.worstTenSecondP99} ms |  |  |`,
    '',
    `Outcomes: ${[...new Set(m.statuses)].map((s) => `${m.statuses.filter((x) => x === s).length} ${s}`).join(', ')}; gap causes: ${m.gapCauses.join(', ') || 'none'}.`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      recordings: { type: 'string', default: '100' },
      seconds: { type: 'string', default: '120' },
      publish: { type: 'boolean', default: false },
    },
  });
  const m = await measureServerPeak(
    positiveArg('recordings', values.recordings),
    positiveArg('seconds', values.seconds),
  );
  process.stdout.write(`${JSON.stringify(m)}\n${summary(m).join('\n')}\n`);
  if (values.publish) {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');
    publishSection(
      file,
      'server-peak',
      sectionText('server-peak', [
        '## A Friday peak through the server (copy mode)',
        '',
        `Measured by \`npx tsx bench/server-peak.ts --recordings ${m.recordings} --seconds ${m.seconds} --publish\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} cores, Node ${process.version}.`,
        ...summary(m),
      ]),
    );
  }
  process.exit(0);
}
