/**
 * Prayer times for 10,000 mosques: the time to compute every mosque's next Friday prayer record
 * (zone-correct date, adhan's Dhuhr, local times), against bare adhan computing the same places'
 * prayer times (each with its country's method) in the same run. docs/architecture.md budgets scheduling 10,000
 * mosques at under 2 s end to end; this is the prayer-time share of it. What the service does beyond
 * bare adhan: the mosque's zone (its date today, whether adhan's Dhuhr landed on the local Friday, the
 * two local times of the record), the record's strings, and keeping each record until its prayer.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Coordinates, PrayerTimes } from 'adhan';
import type { Mosque } from '../contract/mosques';
import { countryCodeAt } from '../server/geo/geocode';
import { timeZoneAt } from '../server/geo/timezone';
import { ManualClock } from '../testkit/manual-clock';
import { defaultMethodFor, parametersFor } from '../server/modules/prayer-times/methods';
import { PrayerTimesService } from '../server/modules/prayer-times/service';
import type { MosquesService } from '../server/modules/mosques/service';
import { median, withRatio, type BenchResult } from './lib';

const MOSQUES = 10_000;
const RUNS = 5;
const CITIES: [number, number][] = [
  [21.4225, 39.8262],
  [30.0444, 31.2357],
  [41.0082, 28.9784],
  [51.5074, -0.1278],
  [40.7128, -74.006],
  [-6.2088, 106.8456],
  [24.8607, 67.0011],
  [-33.8688, 151.2093],
  [33.6844, 73.0479],
  [23.8103, 90.4125],
  [3.139, 101.6869],
  [25.2048, 55.2708],
  [48.8566, 2.3522],
  [43.6532, -79.3832],
  [-26.2041, 28.0473],
  [35.6892, 51.389],
  [59.9139, 10.7522],
  [1.3521, 103.8198],
  [6.5244, 3.3792],
  [-23.5505, -46.6333],
];

function mosques(): Mosque[] {
  return Array.from({ length: MOSQUES }, (_, i) => {
    const [lat, lng] = CITIES[i % CITIES.length];
    const latitude = lat + ((i * 37) % 100) / 500 - 0.1;
    const longitude = lng + ((i * 53) % 100) / 500 - 0.1;
    return {
      mosque_id: `m${String(i).padStart(9, '0')}`,
      name: `Mosque ${i}`,
      name_ar: null,
      google_maps_url: null,
      languages: ['en'],
      ID_token: null,
      active: true,
      broadcast_status: 'inactive',
      latitude,
      longitude,
      timezone: timeZoneAt(latitude, longitude),
      city: null,
      district: null,
      country: null,
      country_code: countryCodeAt(latitude, longitude),
      calculation_method: null,
      fixed_jumuah_time: i % 10 === 0 ? '13:30' : null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    };
  });
}

function timeMs(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function run(): Promise<BenchResult[]> {
  const list = mosques();
  const now = new Date('2026-03-25T08:00:00Z');
  const service = new PrayerTimesService({} as MosquesService, new ManualClock(now));
  const friday = new Date(2026, 2, 27, 12);

  const records: number[] = [];
  const bare: number[] = [];
  for (let run = 0; run < RUNS + 1; run += 1) {
    // Fresh objects with the same data each run: the service keeps each mosque object's answer until
    // its prayer begins, so the same objects again would time a cache hit, not the computation.
    const fresh = list.map((m) => ({ ...m }));
    let produced = 0;
    const ours = timeMs(() => {
      produced = fresh.filter((m) => service.nextFridayPrayer(m, now) !== null).length;
    });
    if (produced !== MOSQUES) throw new Error(`expected ${MOSQUES} prayer times, got ${produced}`);
    const adhanOnly = timeMs(() => {
      for (const m of fresh) {
        const coordinates = new Coordinates(m.latitude ?? 0, m.longitude ?? 0);
        new PrayerTimes(coordinates, friday, parametersFor(defaultMethodFor(m.country_code), coordinates));
      }
    });
    if (run > 0) {
      // The first run warms the JIT and the zone-offset cache.
      records.push(ours);
      bare.push(adhanOnly);
    }
  }
  return [
    withRatio({
      name: 'Prayer times: next Friday prayer records for 10,000 mosques (fresh objects: computed, not cached)',
      figure: Math.round(median(records) * 10) / 10,
      unit: 'ms',
      baseline: Math.round(median(bare) * 10) / 10,
      baselineLabel: "bare adhan PrayerTimes for the same 10,000 places, each with its country's method",
      budget: 'a share of "scheduling 10,000 mosques under 2 s"',
      withinBudget: median(records) < 2000,
    }),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.table(await run());
}
