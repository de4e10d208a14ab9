import { comingFriday } from '../../../contract/fridays';
import type { CostPeriod, InstanceCost } from '../../../contract/instance-cost';
import type { Clock } from '../../lib/clock';
import { parseRuns } from '../recordings';
import type { CostRow, InstancesRepository } from './repository';

/*
 * What the EC2 fleet cost, estimated by the server: every machine's runtime (a relaunched recording's
 * machines each from its start to the next one's, the last to its end or now; a machine several
 * recordings share counted once) times its type's hourly price, plus its root volume for that long.
 */

/**
 * On-demand list prices, Linux, US East (N. Virginia), in USD per hour, from AWS's "Amazon EC2 On-Demand
 * Pricing" page: the burstable and small compute types a recorder runs on. Other regions cost a little
 * more; AWS_HOURLY_PRICES overrides or adds types. Spot machines are priced here too (an upper bound).
 */
export const LIST_PRICES_USD_PER_HOUR: Record<string, number> = {
  't3.micro': 0.0104,
  't3.small': 0.0208,
  't3.medium': 0.0416,
  't3.large': 0.0832,
  't3a.micro': 0.0094,
  't3a.small': 0.0188,
  't3a.medium': 0.0376,
  't3a.large': 0.0752,
  't2.micro': 0.0116,
  't2.small': 0.023,
  't2.medium': 0.0464,
  'c5.large': 0.085,
  'c6i.large': 0.085,
  'c7i.large': 0.08925,
  'm5.large': 0.096,
  'm6i.large': 0.096,
};
export const LIST_PRICE_SOURCE = 'AWS on-demand list prices, Linux, us-east-1';
/** gp3 storage, USD per GB-month (us-east-1), and the hours AWS counts in a month. */
const GP3_USD_PER_GB_MONTH = 0.08;
const HOURS_PER_MONTH = 730;
/** The root volume of the stock Debian and Amazon Linux images, when AWS_VOLUME_SIZE_GB does not say. */
const DEFAULT_VOLUME_GB = 8;
const DAY_MS = 86_400_000;

export interface CostSettings {
  /** AWS_HOURLY_PRICES: the operator's prices, over the list prices. */
  hourlyPrices: Record<string, number>;
  volumeSizeGb: number | undefined;
}

/** One machine: the recording rows it served (several when shared), its type and its span. */
interface Machine {
  type: string;
  start: number;
  end: number;
}

const hoursOf = (ms: number) => ms / 3_600_000;
const cents = (usd: number) => Math.round(usd * 10_000) / 10_000;

export class InstanceCosts {
  private readonly prices: Record<string, number>;
  private readonly volumeGb: number;

  constructor(
    private readonly repository: InstancesRepository,
    private readonly clock: Clock,
    settings: CostSettings,
  ) {
    this.prices = { ...LIST_PRICES_USD_PER_HOUR, ...settings.hourlyPrices };
    this.volumeGb = settings.volumeSizeGb ?? DEFAULT_VOLUME_GB;
  }

  async report(): Promise<InstanceCost> {
    const now = this.clock.now();
    const coming = comingFriday(now);
    const last = new Date(Date.parse(coming) - 7 * DAY_MS).toISOString().slice(0, 10);
    const month = now.toISOString().slice(0, 7);
    const monthStart = `${month}-01T00:00:00.000Z`;
    // A Friday's machines start at most a day before it (the lead time, a mosque east of UTC).
    const from = [monthStart, new Date(Date.parse(last) - DAY_MS).toISOString()].sort()[0];
    const rows = await this.repository.costRows(from);
    return {
      fridays: [coming, last].map((friday) =>
        this.period(
          friday,
          rows.filter((row) => row.friday === friday),
          now,
        ),
      ),
      month: this.period(
        month,
        rows.filter((row) => row.launch_time.startsWith(month)),
        now,
      ),
      hourly_prices: this.prices,
      price_source: Object.keys(this.prices).some((type) => this.prices[type] !== LIST_PRICES_USD_PER_HOUR[type])
        ? `${LIST_PRICE_SOURCE}, with AWS_HOURLY_PRICES`
        : LIST_PRICE_SOURCE,
      volume_gb: this.volumeGb,
      generated_at: now.toISOString(),
    };
  }

  private period(period: string, rows: CostRow[], now: Date): CostPeriod {
    const machines = machinesOf(rows, now.getTime());
    const unpriced = new Set<string>();
    let hours = 0;
    let usd = 0;
    for (const machine of machines) {
      const machineHours = hoursOf(machine.end - machine.start);
      hours += machineHours;
      const price = this.prices[machine.type];
      if (price === undefined) unpriced.add(machine.type);
      else usd += machineHours * (price + (this.volumeGb * GP3_USD_PER_GB_MONTH) / HOURS_PER_MONTH);
    }
    return {
      period,
      recordings: rows.length,
      instances: machines.length,
      instance_hours: cents(hours),
      estimate_usd: cents(usd),
      unpriced_types: [...unpriced].sort(),
    };
  }
}

/**
 * The machines behind `rows`. A row's recorder was relaunched at each of its runs' `relaunchedAt`:
 * each earlier machine ran from its start to then; the current one runs to the row's end (or now)
 * and, shared with other rows, is one machine from the first of their starts to the last of their ends.
 */
function machinesOf(rows: CostRow[], now: number): Machine[] {
  const earlier: Machine[] = [];
  const current = new Map<string, Machine>();
  for (const row of rows) {
    let start = Date.parse(row.launch_time);
    for (const run of parseRuns(row.runs ?? '[]')) {
      const next = Date.parse(run.relaunchedAt);
      earlier.push({ type: row.instance_type, start, end: Math.max(start, next) });
      start = next;
    }
    const end = Math.max(start, row.ended_at ? Date.parse(row.ended_at) : now);
    const key = row.provider_instance_id ?? row.id;
    const known = current.get(key);
    current.set(
      key,
      known
        ? { type: known.type, start: Math.min(known.start, start), end: Math.max(known.end, end) }
        : { type: row.instance_type, start, end },
    );
  }
  return [...earlier, ...current.values()];
}
