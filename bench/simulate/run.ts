/**
 * `npm run simulate -- --mosques 1000 --fridays 52 --seed 1 [--faults none|default|harsh]`: a season
 * of Fridays on the real server with a simulated fleet (see season.ts). Progress on stderr; the last
 * line on stdout is the season's figures as one JSON object.
 */
import { parseArgs } from 'node:util';
import { isFaultMixName } from './faults';
import { simulateSeason } from './season';

const { values } = parseArgs({
  options: {
    mosques: { type: 'string', default: '1000' },
    fridays: { type: 'string', default: '52' },
    seed: { type: 'string', default: '1' },
    faults: { type: 'string', default: 'default' },
  },
});

const positive = (name: string, value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`--${name} must be a whole number of at least 1 (got ${value})`);
  return number;
};

async function main(): Promise<void> {
  const faults = values.faults;
  if (!isFaultMixName(faults)) throw new Error(`--faults must be none, default or harsh (got ${faults})`);
  const options = { mosques: positive('mosques', values.mosques), fridays: positive('fridays', values.fridays), seed: positive('seed', values.seed), faults };
  console.error(`simulating ${options.mosques} mosques x ${options.fridays} Fridays, seed ${options.seed}, faults ${faults}`);
  const report = await simulateSeason({ ...options, log: (line) => console.error(line) });
  console.log(`wall time: ${report.wallSeconds} s`);
  console.log(`statuses: ${JSON.stringify(report.statuses)}`);
  console.log(`alarms: ${JSON.stringify(report.alarmKinds)}`);
  console.log(`media cover 99% of the window: ${report.mediaCaptured} sermons; called captured without that media: ${report.overstated}`);
  for (const example of report.silentExamples) console.log(`silent: ${example}`);
  console.log(JSON.stringify(report.summary));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
