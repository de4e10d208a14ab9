import { z } from 'zod';
import { pageInMemory, searchSortShape } from './list-query';
import type { PrayerTimeRecord } from './mosques';

/*
 * Scheduling's Prayer Times at fleet size: GET /api/scheduler/prayer-times with any of these parameters
 * answers one page of the active mosques' coming Friday prayers and the count of every match
 * (`data.total`); without them it keeps docs/reference.md's whole list.
 */

export const PRAYER_TIME_SORT_FIELDS = [
  'mosque_name',
  'mosque_id',
  'recording_start',
  'friday_prayer',
  'timezone',
] as const;
export type PrayerTimeSortField = (typeof PRAYER_TIME_SORT_FIELDS)[number];

export const schedulerPrayerTimesQuerySchema = z.strictObject({
  /** `q`: part of the mosque's name or id, or of its time zone. */
  ...searchSortShape(PRAYER_TIME_SORT_FIELDS),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).max(10_000_000).optional(),
});
export type SchedulerPrayerTimesQuery = z.input<typeof schedulerPrayerTimesQuerySchema>;
export type ParsedSchedulerPrayerTimesQuery = z.output<typeof schedulerPrayerTimesQuerySchema>;

/** Every record without a page query, else one page of the matching records (by name unless sorted) and their count. */
export function prayerTimesPageOf(
  records: readonly PrayerTimeRecord[],
  query: ParsedSchedulerPrayerTimesQuery,
): { prayer_times: PrayerTimeRecord[]; total?: number } {
  if (Object.values(query).every((value) => value === undefined)) return { prayer_times: [...records] };
  const { rows, total } = pageInMemory(
    records,
    { ...query, limit: query.limit ?? 10, offset: query.offset ?? 0 },
    {
      searched: (record) => [record.mosque_name, record.mosque_id, record.timezone],
      sortValue: (record, field) => record[field],
      // The id tells two mosques of one name apart, so paging never repeats or skips one.
      ties: ['mosque_name', 'mosque_id'],
      defaultOrder: 'asc',
    },
  );
  return { prayer_times: rows, total };
}
