import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prayerTimesResponseSchema, type Mosque } from '../../../contract/mosques';
import { dhuhrOn, nextFridayPrayer, type PrayerSource } from '../../../server/modules/prayer-times/calculate';
import { defaultMethodFor } from '../../../server/modules/prayer-times/methods';
import { zonedTimeToUtc } from '../../../server/geo/timezone';
import { createTestApp, type TestApp } from '../helpers/test-app';

const LONDON: PrayerSource = {
  mosque_id: 'london0001',
  name: 'East London Mosque',
  latitude: 51.5175,
  longitude: -0.0653,
  timezone: 'Europe/London',
  country_code: 'GB',
  calculation_method: null,
  fixed_jumuah_time: null,
};
const at = (iso: string) => new Date(iso);
const minutesBetween = (a: string, b: string) => (new Date(a).getTime() - new Date(b).getTime()) / 60_000;

describe('next Friday prayer', () => {
  it('is Dhuhr on the coming Friday, with the recording 20 minutes before, in local and UTC time', () => {
    const record = nextFridayPrayer(LONDON, at('2026-11-23T09:00:00Z'))!; // a Monday
    expect(record).toMatchObject({
      mosque_id: 'london0001',
      mosque_name: 'East London Mosque',
      friday_prayer: '2026-11-27T11:49:00.000Z',
      recording_start: '2026-11-27T11:29:00.000Z',
      prayer_time: '11:49',
      recording_time: '11:29',
      timezone: 'Europe/London',
      calculation_method: 'MuslimWorldLeague',
    });
    expect(minutesBetween(record.friday_prayer, record.recording_start)).toBe(20);
  });

  it("is today's on a Friday until the prayer begins, then next week's", () => {
    expect(nextFridayPrayer(LONDON, at('2026-11-27T08:00:00Z'))!.friday_prayer).toBe('2026-11-27T11:49:00.000Z');
    // Inside the recording window (after its start) the prayer still lies ahead: still today.
    expect(nextFridayPrayer(LONDON, at('2026-11-27T11:40:00Z'))!.friday_prayer).toBe('2026-11-27T11:49:00.000Z');
    expect(nextFridayPrayer(LONDON, at('2026-11-27T11:49:00Z'))!.friday_prayer.slice(0, 10)).toBe('2026-12-04');
    expect(nextFridayPrayer(LONDON, at('2026-11-28T00:00:00Z'))!.friday_prayer.slice(0, 10)).toBe('2026-12-04');
  });

  it("takes Friday in the mosque's zone, not in UTC", () => {
    const sydney: PrayerSource = {
      ...LONDON,
      mosque_id: 'sydney0001',
      latitude: -33.9196,
      longitude: 151.0766,
      timezone: 'Australia/Sydney',
      country_code: 'AU',
    };
    // Thursday 20:00 UTC is already Friday 07:00 in Sydney (AEDT): today's prayer, at 01:44 UTC on Friday.
    const record = nextFridayPrayer(sydney, at('2026-11-26T20:00:00Z'))!;
    expect(record.friday_prayer.slice(0, 10)).toBe('2026-11-27');
    expect(record.prayer_time).toBe('12:44');
    // Friday 03:00 UTC is Friday 14:00 in Sydney: the prayer has passed there, so next week's.
    expect(nextFridayPrayer(sydney, at('2026-11-27T03:00:00Z'))!.friday_prayer.slice(0, 10)).toBe('2026-12-04');
  });

  it('keeps the local time right across daylight-saving changes', () => {
    // London changes to BST on Sunday 29 March 2026: the next Friday's Dhuhr is near 13:05 local, 12:05 UTC.
    const spring = nextFridayPrayer(LONDON, at('2026-03-28T10:00:00Z'))!;
    expect(spring).toMatchObject({
      friday_prayer: '2026-04-03T12:05:00.000Z',
      prayer_time: '13:05',
      recording_time: '12:45',
    });
    // New York leaves DST on Sunday 1 November 2026.
    const ny: PrayerSource = {
      ...LONDON,
      latitude: 40.7859,
      longitude: -73.9493,
      timezone: 'America/New_York',
      country_code: 'US',
    };
    const autumn = nextFridayPrayer(ny, at('2026-10-31T12:00:00Z'))!;
    expect(autumn.friday_prayer.slice(0, 10)).toBe('2026-11-06');
    expect(autumn.prayer_time).toBe('11:40');
    expect(autumn.calculation_method).toBe('NorthAmerica');
  });

  it("uses the mosque's fixed Jumu'ah time in its zone instead of Dhuhr, across DST too", () => {
    const fixed = { ...LONDON, fixed_jumuah_time: '13:30' };
    expect(nextFridayPrayer(fixed, at('2026-01-12T00:00:00Z'))).toMatchObject({
      friday_prayer: '2026-01-16T13:30:00.000Z',
      recording_start: '2026-01-16T13:10:00.000Z',
      prayer_time: '13:30',
      recording_time: '13:10',
      calculation_method: 'Fixed',
    });
    expect(nextFridayPrayer(fixed, at('2026-07-13T00:00:00Z'))).toMatchObject({
      friday_prayer: '2026-07-17T12:30:00.000Z',
      prayer_time: '13:30',
    });
    // A fixed time needs no coordinates, only a zone.
    const noCoordinates = { ...fixed, latitude: null, longitude: null };
    expect(nextFridayPrayer(noCoordinates, at('2026-07-13T00:00:00Z'))?.prayer_time).toBe('13:30');
  });

  it('has nothing to say for a mosque without coordinates or fixed time', () => {
    expect(nextFridayPrayer({ ...LONDON, latitude: null, longitude: null }, at('2026-07-13T00:00:00Z'))).toBeNull();
    expect(
      nextFridayPrayer(
        { ...LONDON, latitude: null, longitude: null, timezone: null, fixed_jumuah_time: '13:00' },
        at('2026-07-13T00:00:00Z'),
      ),
    ).toBeNull();
  });

  it('guesses the zone from coordinates when the mosque names none', () => {
    const record = nextFridayPrayer(
      { ...LONDON, timezone: null, latitude: 21.4225, longitude: 39.8262, country_code: null },
      at('2026-07-13T00:00:00Z'),
    )!;
    expect(record).toMatchObject({ timezone: 'Asia/Riyadh', calculation_method: 'UmmAlQura', prayer_time: '12:27' });
  });

  it('chooses the method by country unless the mosque names one', () => {
    expect(
      Object.fromEntries(
        [
          'SA',
          'US',
          'CA',
          'PK',
          'IN',
          'BD',
          'EG',
          'AE',
          'QA',
          'KW',
          'SG',
          'MY',
          'ID',
          'TR',
          'IR',
          'GB',
          'FR',
          'ma',
        ].map((c) => [c, defaultMethodFor(c)]),
      ),
    ).toEqual({
      SA: 'UmmAlQura',
      US: 'NorthAmerica',
      CA: 'NorthAmerica',
      PK: 'Karachi',
      IN: 'Karachi',
      BD: 'Karachi',
      EG: 'Egyptian',
      AE: 'Dubai',
      QA: 'Qatar',
      KW: 'Kuwait',
      SG: 'Singapore',
      MY: 'Singapore',
      ID: 'Singapore',
      TR: 'Turkey',
      IR: 'Tehran',
      GB: 'MuslimWorldLeague',
      FR: 'MuslimWorldLeague',
      ma: 'MuslimWorldLeague',
    });
    expect(defaultMethodFor(null)).toBe('MuslimWorldLeague');
    const own = nextFridayPrayer(
      { ...LONDON, calculation_method: 'MoonsightingCommittee' },
      at('2026-11-23T09:00:00Z'),
    )!;
    expect(own.calculation_method).toBe('MoonsightingCommittee');
    // Moonsighting Committee adds 5 minutes to Dhuhr where MWL adds 1.
    expect(minutesBetween(own.friday_prayer, '2026-11-27T11:49:00.000Z')).toBe(4);
    // Without a stored country, the country at the coordinates decides.
    expect(
      nextFridayPrayer(
        { ...LONDON, country_code: null, latitude: 30.0457, longitude: 31.2627, timezone: 'Africa/Cairo' },
        at('2026-11-23T09:00:00Z'),
      )!.calculation_method,
    ).toBe('Egyptian');
  });

  it('computes Dhuhr at high latitudes, in polar day and polar night', () => {
    const tromso: PrayerSource = {
      ...LONDON,
      latitude: 69.6496,
      longitude: 18.956,
      timezone: 'Europe/Oslo',
      country_code: 'NO',
    };
    const summer = nextFridayPrayer(tromso, at('2026-06-15T00:00:00Z'))!; // midnight sun
    const winter = nextFridayPrayer(tromso, at('2026-12-14T00:00:00Z'))!; // polar night
    expect(summer.prayer_time).toMatch(/^12:[45]\d$/);
    expect(winter.prayer_time).toMatch(/^11:[34]\d$/);
    const southern: PrayerSource = {
      ...LONDON,
      latitude: -54.8,
      longitude: -68.3,
      timezone: 'America/Argentina/Ushuaia',
      country_code: 'AR',
    };
    expect(nextFridayPrayer(southern, at('2026-06-15T00:00:00Z'))?.prayer_time).toMatch(/^\d\d:\d\d$/);
  });

  it('lands on the local Friday in zones far from their meridian (UTC+14)', () => {
    const kiritimati: PrayerSource = {
      ...LONDON,
      latitude: 1.87,
      longitude: -157.43,
      timezone: 'Pacific/Kiritimati',
      country_code: 'KI',
    };
    const record = nextFridayPrayer(kiritimati, at('2026-01-12T00:00:00Z'))!;
    // Friday 16 January 12:40 at UTC+14 is Thursday 15 January 22:40 UTC.
    expect(record).toMatchObject({ friday_prayer: '2026-01-15T22:40:00.000Z', prayer_time: '12:40' });
    expect(
      dhuhrOn(
        { year: 2026, month: 1, day: 16 },
        1.87,
        -157.43,
        'Pacific/Kiritimati',
        'MuslimWorldLeague',
      ).toISOString(),
    ).toBe('2026-01-15T22:40:00.000Z');
  });

  it('maps local wall times to instants through DST gaps and overlaps', () => {
    expect(zonedTimeToUtc({ year: 2026, month: 3, day: 29, hour: 1, minute: 30 }, 'Europe/London').toISOString()).toBe(
      '2026-03-29T01:30:00.000Z',
    ); // skipped: 02:30 BST
    expect(zonedTimeToUtc({ year: 2026, month: 10, day: 25, hour: 1, minute: 30 }, 'Europe/London').toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    ); // twice: the first
    expect(zonedTimeToUtc({ year: 2026, month: 7, day: 17, hour: 13, minute: 0 }, 'Asia/Kathmandu').toISOString()).toBe(
      '2026-07-17T07:15:00.000Z',
    );
  });
});

describe('GET /api/config/prayer-times', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(); // clock: Monday 2026-11-23 09:00 UTC
    token = await t.login();
  });
  afterAll(() => t.close());

  it('lists the next Friday prayer of every mosque that has coordinates or a fixed time', async () => {
    const create = async (payload: Record<string, unknown>) =>
      (
        await t.request({
          method: 'POST',
          url: '/api/config/mosques',
          token,
          payload: { languages: ['en'], ...payload },
        })
      ).json().data as Mosque;
    const mecca = await create({ name: 'Masjid al-Haram', latitude: 21.4225, longitude: 39.8262 });
    const fixed = await create({
      name: 'Fixed',
      timezone: 'America/Toronto',
      fixed_jumuah_time: '13:15',
      active: false,
    });
    await create({ name: 'Nowhere' });

    expect((await t.request({ method: 'GET', url: '/api/config/prayer-times' })).statusCode).toBe(401);
    const response = await t.request({ method: 'GET', url: '/api/config/prayer-times', token });
    expect(response.statusCode).toBe(200);
    const { prayer_times } = prayerTimesResponseSchema.parse(response.json()).data;
    prayer_times.sort((a, b) => b.mosque_name.localeCompare(a.mosque_name));
    expect(prayer_times).toEqual([
      {
        mosque_id: mecca.mosque_id,
        mosque_name: 'Masjid al-Haram',
        friday_prayer: '2026-11-27T09:08:00.000Z',
        recording_start: '2026-11-27T08:48:00.000Z',
        recording_time: '11:48',
        prayer_time: '12:08',
        timezone: 'Asia/Riyadh',
        calculation_method: 'UmmAlQura',
      },
      {
        mosque_id: fixed.mosque_id,
        mosque_name: 'Fixed',
        friday_prayer: '2026-11-27T18:15:00.000Z',
        recording_start: '2026-11-27T17:55:00.000Z',
        recording_time: '12:55',
        prayer_time: '13:15',
        timezone: 'America/Toronto',
        calculation_method: 'Fixed',
      },
    ]);

    // The clock moves past Mecca's prayer: its record moves to the next Friday.
    t.clock.set('2026-11-27T09:30:00Z');
    token = await t.login(); // four days on, the old session has lapsed
    const later = prayerTimesResponseSchema.parse(
      (await t.request({ method: 'GET', url: '/api/config/prayer-times', token })).json(),
    ).data.prayer_times;
    later.sort((a, b) => b.mosque_name.localeCompare(a.mosque_name));
    expect(later[0].friday_prayer.slice(0, 10)).toBe('2026-12-04');
    expect(later[1].friday_prayer).toBe('2026-11-27T18:15:00.000Z');
  });
});
