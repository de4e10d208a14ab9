import type { InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  disposeFixture,
  expectRefused,
  expectStillServing,
  hostileFixture,
  snapshot,
  type HostileFixture,
  type Snapshot,
} from './hostile-support';

const JSON_HEADERS = { 'content-type': 'application/json' };
const TWO_MB = 2 * 1024 * 1024;
const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/**
 * Hostile request bodies on every endpoint family: too big, too deep, prototype keys, wrong types,
 * unknown fields, and text the databases cannot hold. Each is refused with its 4xx and a sentence,
 * the server keeps serving, and no table changes.
 */
describe('hostile input: request bodies', () => {
  let f: HostileFixture;
  let before: Snapshot;
  let changesExpected = false;

  beforeAll(async () => {
    f = await hostileFixture();
  });
  afterAll(() => disposeFixture(f));
  beforeEach(async () => {
    changesExpected = false;
    before = await snapshot(f.t);
  });
  afterEach(async () => {
    await expectStillServing(f);
    if (!changesExpected) expect(await snapshot(f.t)).toEqual(before);
  });

  const send = (options: InjectOptions & { token?: string | null }) =>
    f.t.request({ ...options, token: options.token === null ? undefined : (options.token ?? f.admin) });
  const raw = (method: InjectOptions['method'], url: string, payload: string, token: string | null = f.admin) =>
    send({ method, url, payload, headers: JSON_HEADERS, token });

  describe('oversized bodies (2 MB) answer 413', () => {
    const huge = JSON.stringify({ name: 'x'.repeat(TWO_MB), languages: ['ar'] });
    it.each([
      ['POST', '/api/config/mosques', 'admin'],
      ['POST', '/api/auth/login', 'anonymous'],
      ['POST', '/api/instances/launch', 'admin'],
      ['POST', '/api/scheduler/schedule-friday', 'admin'],
      ['PUT', '/api/auth/users/1', 'admin'],
    ] as const)('%s %s (%s)', async (method, url, who) => {
      expectRefused(await raw(method, url, huge, who === 'admin' ? f.admin : null), 413, 'Request body is too large');
    });
  });

  describe('deeply nested JSON answers 400 without exhausting the stack', () => {
    it('10,000 levels of arrays as a mosque name', async () => {
      expectRefused(
        await raw('POST', '/api/config/mosques', `{"name":${nestedArrays(10_000)},"languages":["ar"]}`),
        400,
        /^Request body is invalid: name/,
      );
    });
    it('10,000 levels of objects in a sign-in (no session needed)', async () => {
      expectRefused(
        await raw('POST', '/api/auth/login', `{"username":"admin","password":${nestedObjects(10_000)}}`, null),
        400,
        /password/,
      );
    });
    it('100,000 levels as a whole body to the configuration generator', async () => {
      expectRefused(
        await raw('POST', '/api/config/generate', nestedArrays(100_000)),
        400,
        /expected object, received array/,
      );
    });
    it('10,000 levels in a user update', async () => {
      expectRefused(
        await raw('PUT', `/api/auth/users/${f.userId}`, `{"full_name":${nestedObjects(10_000)}}`),
        400,
        /full_name/,
      );
    });
  });

  describe('prototype keys are refused and pollute nothing', () => {
    afterEach(() => {
      expect(({} as Record<string, unknown>).is_superuser).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
    const forbidden = /__proto__ or constructor\.prototype are not allowed/;
    it('__proto__ at the top of a mosque', async () => {
      expectRefused(
        await raw('POST', '/api/config/mosques', '{"name":"P","languages":["ar"],"__proto__":{"polluted":true}}'),
        400,
        forbidden,
      );
    });
    it('__proto__ inside a launch config', async () => {
      const body =
        '{"configs":[{"url":"https://streams.example.com/a.m3u8","__proto__":{"polluted":true}}],"max_workers":1}';
      expectRefused(await raw('POST', '/api/instances/launch', body), 400, forbidden);
    });
    it('constructor.prototype in a user update that tries to grant superuser', async () => {
      expectRefused(
        await raw('PUT', `/api/auth/users/${f.userId}`, '{"constructor":{"prototype":{"is_superuser":true}}}'),
        400,
        forbidden,
      );
    });
    it('__proto__ in a sign-in', async () => {
      expectRefused(
        await raw(
          'POST',
          '/api/auth/login',
          '{"username":"admin","password":"x","__proto__":{"is_superuser":true}}',
          null,
        ),
        400,
        forbidden,
      );
    });
    it('__proto__ in a query string', async () => {
      expectRefused(
        await send({ method: 'GET', url: '/api/recordings?__proto__[polluted]=1' }),
        400,
        /^Query string is invalid/,
      );
    });
  });

  describe('wrong types answer 400 naming the field', () => {
    it('a number as a mosque name', async () => {
      expectRefused(
        await send({ method: 'POST', url: '/api/config/mosques', payload: { name: 123, languages: ['ar'] } }),
        400,
        /name/,
      );
    });
    it('a string latitude on a mosque update', async () => {
      expectRefused(
        await send({
          method: 'PUT',
          url: '/api/config/mosques/seedmosque',
          payload: { latitude: '21.4', longitude: 39 },
        }),
        400,
        /latitude/,
      );
    });
    it('"true" as a string for is_superuser', async () => {
      expectRefused(
        await send({ method: 'PUT', url: `/api/auth/users/${f.userId}`, payload: { is_superuser: 'true' } }),
        400,
        /is_superuser/,
      );
    });
    it('a string duration and a negative width in a launch', async () => {
      const payload = {
        configs: [{ url: 'https://streams.example.com/a.m3u8', duration: '7200', width: -2 }],
        max_workers: 1,
      };
      expectRefused(
        await send({ method: 'POST', url: '/api/instances/launch', payload }),
        400,
        /configs\.0\.(duration|width)/,
      );
    });
    it('a string forceRefresh in a schedule request', async () => {
      expectRefused(
        await send({ method: 'POST', url: '/api/scheduler/schedule-friday', payload: { forceRefresh: 'yes' } }),
        400,
        /forceRefresh/,
      );
    });
    it('an operator object as a username (NoSQL-style injection)', async () => {
      expectRefused(
        await send({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: { $ne: null }, password: 'x' },
          token: null,
        }),
        400,
        /username/,
      );
    });
    it('a number as a GitHub token', async () => {
      expectRefused(
        await send({ method: 'POST', url: '/api/github/validate', payload: { github_pat: 12345 } }),
        400,
        /github_pat/,
      );
    });
    it.each([
      ['null', 'null'],
      ['an array', '[]'],
      ['a string', '"name"'],
    ])('%s instead of an object', async (_what, body) => {
      expectRefused(await raw('POST', '/api/config/mosques', body), 400, /^Request body is invalid/);
    });
    it('a form body instead of JSON', async () => {
      const response = await send({
        method: 'POST',
        url: '/api/config/mosques',
        payload: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expectRefused(response, 415, 'Unsupported content type: send application/json');
    });
  });

  describe('unknown fields answer 400 naming the key', () => {
    it.each([
      [
        'a mosque with is_admin',
        'POST',
        '/api/config/mosques',
        { name: 'M', languages: ['ar'], is_admin: true },
        /is_admin/,
      ],
      [
        'a user with id and password_hash',
        'POST',
        '/api/auth/users',
        { username: 'sneaky', email: 's@example.com', password: 'Sneaky-pass-1', id: 1, password_hash: 'x' },
        /Unrecognized key/,
      ],
      ['a user update renaming the account', 'PUT', '/api/auth/users/1', { username: 'root' }, /username/],
      [
        'a password change naming another user',
        'POST',
        '/api/auth/change-password',
        { current_password: 'Admin-pass-1', new_password: 'Another-pass-1', user_id: 2 },
        /user_id/,
      ],
      [
        'a launch with a shell command',
        'POST',
        '/api/instances/launch',
        { configs: [{ url: 'https://streams.example.com/a.m3u8', command: 'rm -rf /' }] },
        /command/,
      ],
      [
        'a geocode with a callback',
        'POST',
        '/api/config/geocode',
        { latitude: 1, longitude: 2, callback: 'http://evil.example' },
        /callback/,
      ],
      ['a schedule with a cron expression', 'POST', '/api/scheduler/schedule-friday', { cron: '* * * * *' }, /cron/],
    ] as const)('%s', async (_what, method, url, payload, detail) => {
      expectRefused(await send({ method, url, payload }), 400, detail);
    });
  });

  describe('unicode and text the databases cannot hold', () => {
    // Arabic, emoji, a joiner, Hebrew: kept exactly. Bidi controls are refused in every display field.
    const tricky = 'مسجد gnp.exe 🕌 \u200d«Ḿ» \u05D0';

    it('stores a mosque name with Arabic, emoji and joiners exactly, in valid JSON, and refuses one with an RTL override', async () => {
      changesExpected = true;
      const created = await send({
        method: 'POST',
        url: '/api/config/mosques',
        payload: { name: tricky, name_ar: 'مسجد', languages: ['ar'] },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().data.mosque_id as string;
      const fetched = await send({ method: 'GET', url: `/api/config/mosques/${id}` });
      expect(fetched.json().data).toMatchObject({ name: tricky, name_ar: 'مسجد' });
      const list = await send({ method: 'GET', url: '/api/config/mosques' });
      expect(() => JSON.parse(list.body)).not.toThrow();
      expect(list.json().data.mosques.map((m: { name: string }) => m.name)).toContain(tricky);
      const reversed = await send({
        method: 'POST',
        url: '/api/config/mosques',
        payload: { name: 'مسجد \u202Egnp.exe', name_ar: '\u202Bمسجد\u202C', languages: ['ar'] },
      });
      expectRefused(reversed, 400, /name: Name may not contain bidi or other invisible format characters/);
    });

    it('stores a full name in another script exactly, and refuses one with an RTL override', async () => {
      changesExpected = true;
      const created = await send({
        method: 'POST',
        url: '/api/auth/users',
        payload: {
          username: 'علي',
          email: 'ali@example.com',
          full_name: 'علي بن أحمد',
          password: 'Unicode-pass-1',
          role: 'user',
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const users = (await send({ method: 'GET', url: '/api/auth/users' })).json().users as {
        username: string;
        full_name: string;
      }[];
      expect(users.find((u) => u.username === 'علي')?.full_name).toBe('علي بن أحمد');
      const reversed = await send({
        method: 'POST',
        url: '/api/auth/users',
        payload: {
          username: 'ali2',
          email: 'ali2@example.com',
          full_name: 'Ali \u202Enimda\u202C',
          password: 'Unicode-pass-1',
          role: 'user',
        },
      });
      expectRefused(reversed, 400, /full_name: Full name may not contain bidi/);
    });

    it('refuses an RTL override in a username, on create and on sign-in alike', async () => {
      const payload = { username: 'adm\u202Enim', email: 'rtl@example.com', password: 'Rtl-pass-123' };
      expectRefused(
        await send({ method: 'POST', url: '/api/auth/users', payload }),
        400,
        /username: Username may contain only/,
      );
      expectRefused(
        await send({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'adm\u202Enim', password: 'x' },
          token: null,
        }),
        401,
        'Incorrect username or password',
      );
    });

    it('refuses an RTL override in an image name', async () => {
      const payload = { instance_id: f.seeds.instanceId, name: 'rec\u202Eorder', version: '1.0.0' };
      expectRefused(await send({ method: 'POST', url: '/api/ami/create', payload }), 400, /name: Name may contain/);
    });

    it.each([
      [
        'a NUL in a mosque name',
        'POST',
        '/api/config/mosques',
        { name: 'a\u0000b', languages: ['ar'] },
        /name contains a NUL character/,
      ],
      [
        'a NUL in a sign-in name',
        'POST',
        '/api/auth/login',
        { username: 'admin\u0000', password: 'x' },
        /username contains a NUL character/,
      ],
      [
        'a NUL in a stream URL',
        'POST',
        '/api/instances/launch',
        { configs: [{ url: 'https://streams.example.com/\u0000.m3u8' }] },
        /configs\.0\.url contains/,
      ],
      [
        'a NUL in a schedule filter',
        'POST',
        '/api/scheduler/schedule-friday',
        { mosqueFilter: ['seedmosque\u0000'] },
        /mosqueFilter\.0 contains/,
      ],
      [
        'an unpaired surrogate in a full name',
        'PUT',
        '/api/auth/users/1',
        { full_name: 'bad \ud800 text' },
        /full_name contains .*unpaired surrogate/,
      ],
    ] as const)('refuses %s the same way on every database', async (_what, method, url, payload, detail) => {
      expectRefused(
        await send({ method, url, payload, token: url === '/api/auth/login' ? null : f.admin }),
        400,
        detail,
      );
    });

    it('refuses a NUL in a path id the same way on every database', async () => {
      expectRefused(
        await send({ method: 'DELETE', url: '/api/config/mosques/seedmosque%00' }),
        400,
        /mosque_id contains a NUL character/,
      );
      expectRefused(
        await send({ method: 'GET', url: '/api/recordings?mosque_id=%00' }),
        400,
        /^Query string is invalid: mosque_id contains/,
      );
    });
  });
});
