import { afterEach, describe, expect, it } from 'vitest';
import { authRoutes } from '../../../contract/routes/auth';
import { mosqueRoutes } from '../../../contract/routes/mosques';
import { MOSQUES_LIST_PATH } from '../../../src/api/mosques-page';
import { preload, PRELOAD_TTL_MS, takeArrived, takePreloaded } from '../../../src/api/preloaded';
import { plainGet } from '../../../src/api/plain-read';
import { VERIFY_TOKEN_PATH } from '../../../src/auth/session-check';
import { sessionFor } from '../../../src/mocks/store';

afterEach(() => localStorage.clear());

describe('the reads a stored session starts before the console has loaded', () => {
  it('name the same paths as the route table', () => {
    expect(VERIFY_TOKEN_PATH).toBe(authRoutes.verifyToken.path);
    expect(MOSQUES_LIST_PATH).toBe(mosqueRoutes.list.path);
  });

  it('send the stored token and its query, and reject an error answer', async () => {
    localStorage.setItem('token', sessionFor('admin'));
    const answer = await plainGet<{ data: { mosques: unknown[]; total: number } }>(MOSQUES_LIST_PATH, {
      limit: 2,
      offset: 0,
      q: undefined,
    });
    expect(answer.data.mosques).toHaveLength(2);
    localStorage.setItem('token', 'stale-token');
    await expect(plainGet(VERIFY_TOKEN_PATH)).rejects.toThrow('401');
  });
});

describe('a preloaded read that has already come', () => {
  it('is taken once, with when it came; until it comes the read stays for takePreloaded', async () => {
    let answer!: (value: string) => void;
    preload('arrives-later', () => new Promise<string>((resolve) => (answer = resolve)));
    expect(takeArrived('arrives-later')).toBeUndefined();
    answer('page');
    await expect.poll(() => takeArrived<string>('arrives-later')?.value).toBe('page');
    expect(takeArrived('arrives-later')).toBeUndefined();
    await expect(takePreloaded('arrives-later', () => Promise.resolve('asked again'))).resolves.toBe('asked again');
  });

  it('is not taken once it is older than the preload lifetime', async () => {
    preload('old', () => Promise.resolve('page'), 0);
    await Promise.resolve();
    expect(takeArrived('old', PRELOAD_TTL_MS)).toBeUndefined();
  });
});
