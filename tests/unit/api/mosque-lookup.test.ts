import { afterEach, describe, expect, it } from 'vitest';
import { MOSQUES_LIST_PATH } from '../../../src/api/mosques-page';
import { getMosqueById } from '../../../src/api/mosque-lookup';
import { sessionFor } from '../../../src/mocks/store';
import { server } from '../support/server';

afterEach(() => localStorage.clear());

describe('mosques read by id', () => {
  it('are asked for together, one request naming the ids, never the whole list', async () => {
    localStorage.setItem('token', sessionFor('admin'));
    const asked: URLSearchParams[] = [];
    const listen = ({ request }: { request: Request }) => {
      const url = new URL(request.url);
      if (url.pathname === MOSQUES_LIST_PATH) asked.push(url.searchParams);
    };
    server.events.on('request:start', listen);
    try {
      const [london, east, nobody, again] = await Promise.all([
        getMosqueById('lcm4r8k2p1'),
        getMosqueById('elm7q2w9z3'),
        getMosqueById('gone000000'),
        getMosqueById('lcm4r8k2p1'),
      ]);
      expect([london?.name, east?.name, nobody, again?.name]).toEqual([
        'London Central Mosque',
        'East London Mosque',
        null,
        'London Central Mosque',
      ]);
      expect(asked).toHaveLength(1);
      expect(asked[0].get('mosque_ids')).toBe('lcm4r8k2p1,elm7q2w9z3,gone000000');
    } finally {
      server.events.removeListener('request:start', listen);
    }
  });

  it('reject, each of them, when the list cannot be read', async () => {
    localStorage.setItem('token', 'stale-token');
    const both = [getMosqueById('lcm4r8k2p1'), getMosqueById('elm7q2w9z3')];
    for (const read of both) await expect(read).rejects.toThrow();
  });
});
