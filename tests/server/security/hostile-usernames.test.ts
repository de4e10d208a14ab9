import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { expectRefused, snapshot } from './hostile-support';

/**
 * Usernames that look like an existing one: other Unicode spellings of the same name (NFD, fullwidth,
 * case) are the same name; a name whose UTS #39 skeleton (Unicode's confusables data) is an existing
 * one's is refused (409), as is one that mixes scripts or uses IPA and phonetic letters (400), so
 * nobody can pass for "admin" in the user list or the activity log.
 */
describe('hostile input: lookalike usernames', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
    admin = await t.login();
    await t.createUser({ username: 'operator' });
    const jose = await t.request({
      method: 'POST',
      url: '/api/auth/users',
      token: admin,
      payload: {
        username: 'jos\u00e9',
        email: 'jose@example.com',
        password: 'User-pass-1',
        role: 'user',
        is_active: true,
        is_superuser: false,
      },
    });
    expect(jose.statusCode, jose.body).toBe(201);
  });
  afterAll(() => t.close());

  const create = (username: string) =>
    t.request({
      method: 'POST',
      url: '/api/auth/users',
      token: admin,
      payload: { username, email: 'twin@example.com', password: 'Twin-pass-123', role: 'admin', is_superuser: true },
    });

  it.each([
    ['upper case', 'ADMIN'],
    ['fullwidth letters', '\uff41\uff44\uff4d\uff49\uff4e'],
    ['a decomposed accent (NFD)', 'jose\u0301'],
    ['a composed name in upper case', 'JOS\u00c9'],
  ])('treats %s as the same name (409)', async (_name, username) => {
    const before = await snapshot(t);
    expectRefused(await create(username), 409, /is already taken$/);
    expect(await snapshot(t)).toEqual(before);
  });

  it.each([
    ['an accent added', 'opérator'],
    ['rn for m', 'adrnin'],
    ['a dotless ı for i', 'adm\u0131n'],
  ])('refuses %s as a lookalike of an existing name (409)', async (_name, username) => {
    const before = await snapshot(t);
    expectRefused(
      await create(username),
      409,
      /looks like the existing username (admin|operator|josé); choose another$/,
    );
    expect(await snapshot(t)).toEqual(before);
  });

  it.each([
    ['a Cyrillic а', '\u0430dmin', /mixes the Cyrillic and Latin scripts/],
    ['Greek ο and Cyrillic р', '\u03bf\u0440erator', /mixes the Greek and Cyrillic scripts/],
    ['Cyrillic ӏ (U+04CF)', 'adm\u04cfn', /mixes the Latin and Cyrillic scripts/],
    ['Cherokee Ꭺ (U+13AA)', '\u13aadmin', /mixes the Cherokee and Latin scripts/],
    ['Armenian ո (U+0578)', 'admi\u0578', /mixes the Latin and Armenian scripts/],
    ['IPA ɑ (U+0251)', '\u0251dmin', /IPA, phonetic or modifier letters/],
    ['small capital ᴀ (U+1D00)', '\u1d00dmin', /IPA, phonetic or modifier letters/],
    ['IPA ɩ (U+0269)', 'adm\u0269n', /IPA, phonetic or modifier letters/],
    ['small capital ɪ (U+026A)', 'adm\u026an', /IPA, phonetic or modifier letters/],
  ])('refuses %s in a name (400)', async (_name, username, message) => {
    const before = await snapshot(t);
    expectRefused(await create(username), 400, message);
    expect(await snapshot(t)).toEqual(before);
  });

  it("refuses every name Unicode's confusables data draws like admin, one letter changed", async () => {
    const confusables = createRequire(import.meta.url)('unhomoglyph/data.json') as Record<string, string>;
    const kin = ['a', 'd', 'm', 'i', 'n'].flatMap((letter, at) =>
      Object.entries(confusables)
        .filter(([, prototype]) => prototype === (letter === 'm' ? 'rn' : letter))
        .map(([lookalike]) => `${'admin'.slice(0, at)}${lookalike}${'admin'.slice(at + 1)}`),
    );
    expect(kin.length).toBeGreaterThan(100);
    const before = await snapshot(t);
    for (const username of kin) {
      const response = await create(username);
      expect([400, 409], `${username}: ${response.body}`).toContain(response.statusCode);
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('signs in with any spelling of the same name, and still accepts names that only differ for real', async () => {
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: '\uff21\uff24\uff2d\uff29\uff2e', password: 'Admin-pass-1' },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'jose\u0301', password: 'User-pass-1' },
        })
      ).statusCode,
    ).toBe(200);
    for (const username of [
      'operator2',
      'administrator',
      '\u0414\u043c\u0438\u0442\u0440\u0438\u0439',
      '\u0645\u062d\u0645\u062f',
      '\u015f\u00fckr\u00fc',
      '\u5c71\u7530',
    ]) {
      expect((await create(username)).statusCode, username).toBe(201);
    }
  });
});
