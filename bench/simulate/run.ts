/**
 * `npm run simulate -- --mosques 1000 --fridays 52 --seed 1 [--faults none|default|harsh]`: a season
 * of Fridays on the real server with a simulated fleet (see season.ts). Progress on stderr; the last
 * line on stdout is the season's figures as one JSON object. `--publish` runs the three fault mixes
 * one after another and writes their figures into bench/RESULTS.md.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isFaultMixName, type FaultMixName } from './faults';
import { publishSection } from '../published-sections';
import { seasonSection, type PublishedRun } from './publish';
import { simulateSeason, type SeasonOptions, type SeasonReport } from './season';
import { positiveArg } from '../lib';

const { values } = parseArgs({
  options: {
    mosques: { type: 'string', default: '1000' },
    fridays: { type: 'string', default: '52' },
    seed: { type: 'string', default: '1' },
    faults: { type: 'string', default: 'default' },
    publish: { type: 'boolean', default: false },
  },
});

async function season(options: Omit<SeasonOptions, 'faults'>, faults: FaultMixName): Promise<SeasonReport> {
  console.error(
    `simulating ${options.mosques} mosques x ${options.fridays} Fridays, seed ${options.seed}, faults ${faults}`,
  );
  const report = await simulateSeason({ ...options, faults, log: (line) => console.error(line) });
  console.log(`wall time: ${report.wallSeconds} s`);
  console.log(`ledger statuses: ${JSON.stringify(report.statuses)}`);
  console.log(`alarms by kind: ${JSON.stringify(report.alarmKinds)}`);
  console.log(`notifications by event and kinds: ${JSON.stringify(report.notificationsBy)}`);
  console.log(
    `media cover 99% of the window: ${report.mediaCaptured} sermons; called captured without that media: ${report.overstated}`,
  );
  console.log(`not captured, by injected fault: ${JSON.stringify(report.notCapturedBy)}`);
  for (const example of report.silentExamples) console.log(`silent: ${example}`);
  console.log(JSON.stringify(report.summary));
  return report;
}

async function main(): Promise<void> {
  const options = {
    mosques: positiveArg('mosques', values.mosques),
    fridays: positiveArg('fridays', values.fridays),
    seed: positiveArg('seed', values.seed),
  };
  if (!values.publish) {
    const faults = values.faults;
    if (!isFaultMixName(faults)) throw new Error(`--faults must be none, default or harsh (got ${faults})`);
    await season(options, faults);
    return;
  }
  const measuredAt = new Date();
  const runs: PublishedRun[] = [];
  const command = `npm run simulate -- --mosques ${options.mosques} --fridays ${options.fridays} --seed ${options.seed} --publish`;
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'RESULTS.md');
  for (const faults of ['none', 'default', 'harsh'] as const) {
    const loadAtStart = os.loadavg();
    runs.push({ faults, loadAtStart, report: await season(options, faults) });
    // Written after each mix: a long run interrupted still leaves what it measured.
    publishSection(file, 'simulated-season', seasonSection(command, runs, measuredAt));
    console.error(`wrote the ${faults} season into bench/RESULTS.md`);
  }
  // The published mixes end with the default one's figures, the claim's.
  console.log(JSON.stringify(runs[1].report.summary));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
