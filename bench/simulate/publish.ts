import os from 'node:os';
import { sectionText } from '../published-sections';
import type { FaultMixName } from './faults';
import type { SeasonReport } from './season';

/* The simulated season's section of bench/RESULTS.md (`npm run simulate -- --publish`). */

export interface PublishedRun {
  faults: FaultMixName;
  report: SeasonReport;
  loadAtStart: number[];
}

export function seasonSection(command: string, runs: PublishedRun[], measuredAt: Date): string {
  const cpu = os.cpus();
  const lines = [
    '## Simulated season (capture assurance)',
    '',
    `Measured by \`${command}\` on ${measuredAt.toISOString().slice(0, 10)}: ${cpu.length} cores (${cpu[0]?.model ?? 'unknown CPU'}), Node ${process.version}.`,
    'The real scheduler, planner, fleet, ledger and alarms on an accelerated clock, with a simulated fleet',
    'of recorders whose streams misbehave as each fault mix says (bench/README.md, "Simulated season"). The last',
    'line of each run is its JSON; `silent` counts sermons not captured in full that raised no alarm.',
    '',
    '| faults | wall time | load average (1, 5, 15 min) at its start | media cover 99% | called captured without that media | not captured, by injected fault | alarms by kind |',
    '|---|---|---|---|---|---|---|',
    ...runs.map(
      ({ faults, report, loadAtStart }) =>
        `| ${faults} | ${report.wallSeconds} s | ${loadAtStart.map((l) => l.toFixed(2)).join(', ')} | ${report.mediaCaptured} | ${report.overstated} | ${kinds(report.notCapturedBy)} | ${kinds(report.alarmKinds)} |`,
    ),
    '',
    ...runs.flatMap(({ faults, report }) => [`${faults}:`, '', '```json', JSON.stringify(report.summary), '```', '']),
  ];
  return sectionText('simulated-season', lines);
}

const kinds = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ') || 'none';
