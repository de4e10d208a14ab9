import { describe, expect, it } from 'vitest';
import type { Mosque } from '../../../contract/mosques';
import { readyToRecord } from '../../../contract/ready-to-record';

const FRIDAY = '2026-11-27T11:29:00Z';

const mosque = (id: string, patch: Partial<Mosque> = {}) =>
  ({ mosque_id: id, active: true, ID_token: `https://example.com/${id}.m3u8`, ...patch }) as Mosque;

const ids = (mosques: Mosque[]) => mosques.map((m) => m.mosque_id);

describe('Ready to Record', () => {
  const located = new Set(['a', 'b', 'c', 'd', 'e']);
  const prayerTimes = new Map(['a', 'b', 'c', 'd', 'e'].map((id) => [id, { friday_prayer: FRIDAY }]));

  it('counts an active mosque with a stream, coordinates and a Friday prayer', () => {
    expect(ids(readyToRecord({ mosques: [mosque('a')], located, prayerTimes, jobs: [] }))).toEqual(['a']);
  });

  it('leaves out a mosque without a stream, an inactive one, and one without coordinates or a prayer time', () => {
    const mosques = [
      mosque('a', { ID_token: null }),
      mosque('b', { ID_token: '  ' }),
      mosque('c', { active: false }),
      mosque('x'),
      mosque('e'),
    ];
    const noTimeForE = new Map([...prayerTimes].filter(([id]) => id !== 'e'));
    expect(readyToRecord({ mosques, located, prayerTimes: noTimeForE, jobs: [] })).toEqual([]);
  });

  it('leaves out a mosque whose coming Friday was cancelled, not one whose other Friday was', () => {
    const jobs = [
      {
        kind: 'recording' as const,
        status: 'cancelled' as const,
        mosque_id: 'a',
        prayer_time: '2026-11-27T11:29:00.000Z',
      },
      { kind: 'recording' as const, status: 'cancelled' as const, mosque_id: 'b', prayer_time: '2026-11-20T11:29:00Z' },
      { kind: 'recording' as const, status: 'scheduled' as const, mosque_id: 'c', prayer_time: FRIDAY },
    ];
    expect(
      ids(readyToRecord({ mosques: [mosque('a'), mosque('b'), mosque('c')], located, prayerTimes, jobs })),
    ).toEqual(['b', 'c']);
  });
});
