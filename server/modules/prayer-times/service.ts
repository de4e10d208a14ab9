import type { FastifyBaseLogger } from 'fastify';
import type { Mosque, PrayerTimeRecord } from '../../../contract/mosques';
import type { Clock } from '../../lib/clock';
import type { MosquesService } from '../mosques';
import { canComputePrayer, fridayPrayerOn, nextFridayPrayer } from './calculate';

/**
 * Friday prayer times of mosques (docs/architecture.md, "Time"): Dhuhr on Friday in the mosque's IANA zone by
 * adhan with the mosque's (or its country's) method, or the mosque's fixed Jumu'ah time; the
 * recording starts 20 minutes before. Pure computation over the mosque: no I/O except listing.
 */
export class PrayerTimesService {
  /**
   * Each mosque's next prayer as last computed, with the instant it was computed at: it stays the
   * answer until that prayer begins. Keyed by the mosque object, which the mosques service replaces
   * on every change, so an edited mosque is computed afresh (10,000 mosques took ~1 s per listing).
   */
  private readonly nextPrayers = new WeakMap<Mosque, { from: number; record: PrayerTimeRecord | null }>();

  constructor(
    private readonly mosques: MosquesService,
    private readonly clock: Clock,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /**
   * The mosque's next Friday prayer strictly after `now` (today's while it is Friday there and the
   * prayer has not begun). Null when the mosque has neither coordinates nor a fixed time with a zone.
   */
  nextFridayPrayer(mosque: Mosque, now: Date = this.clock.now()): PrayerTimeRecord | null {
    const at = now.getTime();
    const known = this.nextPrayers.get(mosque);
    if (known && known.record && at >= known.from && at < Date.parse(known.record.friday_prayer)) return known.record;
    const record = nextFridayPrayer(mosque, now);
    this.nextPrayers.set(mosque, { from: at, record });
    return record;
  }

  /** The Friday prayer of a mosque on one local date, `YYYY-MM-DD` in the mosque's zone. */
  fridayPrayerOn(mosque: Mosque, localDate: string): PrayerTimeRecord | null {
    return fridayPrayerOn(mosque, localDate);
  }

  /** Whether the mosque has what a prayer time needs. */
  canCompute(mosque: Mosque): boolean {
    return canComputePrayer(mosque);
  }

  /** Next Friday prayers of the given mosques (all of them when omitted); mosques without one are left out. */
  async upcoming(options: { mosques?: Mosque[]; now?: Date } = {}): Promise<PrayerTimeRecord[]> {
    const now = options.now ?? this.clock.now();
    const mosques = options.mosques ?? (await this.mosques.list());
    const records: PrayerTimeRecord[] = [];
    for (const mosque of mosques) {
      try {
        const found = this.nextFridayPrayer(mosque, now);
        if (found) records.push(found);
      } catch (error) {
        this.log?.warn({ err: error, mosque_id: mosque.mosque_id }, 'prayer time could not be computed');
      }
    }
    return records;
  }
}
