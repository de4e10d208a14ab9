/**
 * `npm run bench`: builds (npm run build: the HTTP benchmarks run the built server, as production
 * does), runs every benchmark in bench/ one after another (they share two cores, so never in
 * parallel) and writes bench/RESULTS.md and bench/results.json: the budgets table, then each figure,
 * the baseline measured in the same run, their ratio, and the budget it is held to.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from './lib';
import { existingSections } from './published-sections';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Benchmarks in the order they run, by file name in bench/. */
const BENCHMARKS = [
  'console-size',
  'login-visible',
  'startup',
  'api',
  'config-page-api',
  'fleet',
  'config-first-page',
  'scheduling-first-page',
  'live-feed',
  'scheduler',
  'prayer-times',
  'capture-first-bytes',
  'density',
];

/** The budgets of issue 16, in its order: each row is held by the results that name it (budgetRow). */
const BUDGETS: { row: string; figure: string; budget: string }[] = [
  {
    row: 'upcoming',
    figure: 'upcoming?limit=20 with 10,000 pending jobs, req/s vs bare Fastify sending the same body',
    budget: '≥ 0.5x, p99 < 25 ms at 50 connections',
  },
  { row: 'put', figure: 'mosque PUT with the scheduler running and 10,000 jobs', budget: 'p50 < 20 ms' },
  { row: 'burst', figure: 'an unrelated signed-in GET during a burst of 1,000 mosque creates', budget: 'p99 < 50 ms' },
  {
    row: 'instances',
    figure: 'GET /api/instances/ (200) vs a bare route sending the same cached string',
    budget: '≥ 0.5x',
  },
  {
    row: 'login-bytes',
    figure: 'JS bytes on the wire for /login',
    budget: '≤ 1.1x the bare React + MUI TextField + Button page, compressed',
  },
  {
    row: 'login-visible',
    figure: 'sign-in form visible after navigation to /login, in Chromium, cold',
    budget: '≤ 1.2x a bare React + MUI page of the same form',
  },
  { row: 'start', figure: 'start to first 200', budget: '≤ 2x a bare Fastify on plain node' },
  {
    row: 'config-first-page',
    figure: 'Config Generator: first page of 10,000 mosques visible after navigation',
    budget: '< 1 s',
  },
  { row: 'rss', figure: 'RSS after start, local driver', budget: '≤ 2x a bare Fastify on plain node' },
  {
    row: 'config-page',
    figure: 'GET /api/config/mosques?limit=10 (10,000 mosques) vs a bare route doing the same job per request',
    budget: '≥ 0.5x',
  },
  { row: 'fleet-start', figure: 'start to first 200 with 10,000 mosques', budget: '≤ 2x a bare Fastify on plain node' },
  {
    row: 'fleet-rss',
    figure: 'RSS once the scheduler planned 10,000 mosques',
    budget: '≤ 2.5x a bare Fastify on plain node',
  },
];

interface Section {
  benchmark: string;
  seconds: number;
  /** The machine's 1-minute load average when the benchmark started (others may be using it). */
  load: number;
  results: BenchResult[];
  error?: string;
}

const loadAverage = () => os.loadavg().map((l) => Number(l.toFixed(2)));
const startLoad = loadAverage();

async function runOne(name: string): Promise<Section> {
  const started = performance.now();
  const load = loadAverage()[0];
  try {
    const module = (await import(path.join(here, `${name}.ts`))) as { run(): Promise<BenchResult[]> };
    const results = await module.run();
    return { benchmark: name, seconds: (performance.now() - started) / 1000, load, results };
  } catch (error) {
    return {
      benchmark: name,
      seconds: (performance.now() - started) / 1000,
      load,
      results: [],
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

function budgetTable(sections: Section[]): string[] {
  const results = sections.flatMap((section) => section.results);
  const lines = [
    '## Budgets',
    '',
    '| figure | measured | baseline (same run) | budget | pass |',
    '|---|---|---|---|---|',
  ];
  for (const { row, figure, budget } of BUDGETS) {
    const held = results.filter((r) => r.budgetRow === row);
    if (held.length === 0) {
      lines.push(`| ${figure} | not measured (its benchmark failed or was not run) | | ${budget} | **no** |`);
      continue;
    }
    const ratioOf = (r: BenchResult) =>
      r.ratio !== undefined && r.budget?.includes('x the baseline') ? ` (${r.ratio}x)` : '';
    const measured = held.map((r) => `${r.figure} ${r.unit}${ratioOf(r)}`).join('; ');
    const baseline = held
      .filter((r) => r.baseline !== undefined)
      .map((r) => `${r.baseline} ${r.unit}`)
      .join('; ');
    const pass = held.every((r) => r.withinBudget === true);
    lines.push(`| ${figure} | ${measured} | ${baseline} | ${budget} | ${pass ? 'yes' : '**no**'} |`);
  }
  return [...lines, ''];
}

const cell = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '' : String(value));

function markdown(sections: Section[], startedAt: Date, endLoad: number[], totalSeconds: number): string {
  // Only the load before the first benchmark tells of other work: the benchmarks load both cores themselves.
  const busy = startLoad[0] > os.cpus().length / 2;
  const lines = [
    '# Benchmark results',
    '',
    `Measured by \`npm run bench\` on ${startedAt.toISOString().slice(0, 10)}: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}),`,
    `${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${Math.round(totalSeconds)} s in all. Every baseline was measured in the same run on the same machine;`,
    'the ratio is figure / baseline. The budgets table holds those of issue 16; the others are docs/architecture.md\'s ("Performance budgets").',
    '',
    `Load average (1, 5, 15 min): ${startLoad.join(', ')} at the start, ${endLoad.join(', ')} at the end.`,
    busy
      ? `Other work kept the ${os.cpus().length} cores busy while this ran, so absolute times are noisy and read high; the ratios,\nmeasured against a baseline under the same load in the same run, are the steadier figures.`
      : `The machine was otherwise quiet when the run started (1-minute load below half of the ${os.cpus().length} cores).`,
    '',
    ...budgetTable(sections),
    '## Every figure',
    '',
    '| benchmark | figure | baseline | ratio | budget | within budget |',
    '|---|---|---|---|---|---|',
  ];
  for (const section of sections) {
    if (section.error)
      lines.push(`| ${section.benchmark} | failed: ${section.error.replaceAll('|', '/')} | | | | no |`);
    for (const r of section.results) {
      const baseline = r.baseline === undefined ? '' : `${r.baseline} ${r.unit} (${r.baselineLabel ?? 'baseline'})`;
      const verdict = r.withinBudget === undefined ? '' : r.withinBudget ? 'yes' : '**no**';
      lines.push(
        `| ${r.name} | ${cell(r.figure)} ${r.unit} | ${baseline} | ${cell(r.ratio)} | ${r.budget ?? ''} | ${verdict} |`,
      );
    }
  }
  lines.push(
    '',
    '| benchmark | seconds | load average (1 min) at its start |',
    '|---|---|---|',
    ...sections.map((s) => `| ${s.benchmark} | ${s.seconds.toFixed(1)} | ${s.load} |`),
    '',
  );
  return lines.join('\n');
}

const only = process.argv.slice(2);
// The HTTP benchmarks run the built server and the console-size one the build's plugin: build first, once.
process.stdout.write('npm run build ...\n');
execFileSync('npm', ['run', 'build'], { cwd: path.join(here, '..'), stdio: ['ignore', 'ignore', 'inherit'] });
const startedAt = new Date();
const sections: Section[] = [];
for (const name of BENCHMARKS.filter((b) => only.length === 0 || only.includes(b))) {
  process.stdout.write(`bench ${name} ...\n`);
  const section = await runOne(name);
  sections.push(section);
  if (section.error) process.stdout.write(`  failed: ${section.error}\n`);
  for (const r of section.results)
    process.stdout.write(`  ${r.name}: ${r.figure} ${r.unit}${r.ratio === undefined ? '' : ` (ratio ${r.ratio})`}\n`);
}
const endLoad = loadAverage();
const totalSeconds = (Date.now() - startedAt.getTime()) / 1000;
const resultsFile = path.join(here, 'RESULTS.md');
// The simulated and fidelity seasons publish their own sections (--publish): they are kept.
const published = fs.existsSync(resultsFile) ? existingSections(fs.readFileSync(resultsFile, 'utf8')) : [];
fs.writeFileSync(
  resultsFile,
  `${markdown(sections, startedAt, endLoad, totalSeconds)}${published.map((section) => `\n${section}`).join('')}`,
);
const machine = {
  cores: os.cpus().length,
  cpu: os.cpus()[0]?.model ?? null,
  node: process.version,
  load_average_start: startLoad,
  load_average_end: endLoad,
};
fs.writeFileSync(
  path.join(here, 'results.json'),
  `${JSON.stringify({ measured_at: startedAt.toISOString(), total_seconds: Math.round(totalSeconds), machine, sections }, null, 2)}\n`,
);
process.stdout.write(`wrote bench/RESULTS.md in ${totalSeconds.toFixed(0)} s\n`);
process.exit(sections.some((s) => s.error) ? 1 : 0);
