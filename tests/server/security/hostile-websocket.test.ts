import crypto from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIVE_CLOSE_UNAUTHORIZED, LIVE_MAX_FRAME_BYTES } from '../../../contract/live';
import { connect, connectAs, hello, listen, type LiveClient } from '../live/live-client';
import {
  disposeFixture,
  expectStillServing,
  hostileFixture,
  snapshot,
  type HostileFixture,
  type Snapshot,
} from './hostile-support';

const MESSAGE_TOO_BIG = 1009;

/**
 * Hostile clients of the live feed: no token, a bad Origin, forged, revoked and deactivated tokens,
 * frames over 64 KiB, floods, and malformed, deep or prototype-laden messages. Each is closed with
 * its code (or answered with an error), nothing is sent to an unauthenticated socket, the server
 * keeps serving both HTTP and new sockets, and nothing changes.
 */
describe('hostile input: the live socket', () => {
  let f: HostileFixture;
  let url: string;
  let before: Snapshot;
  let revoked: string;
  let deactivated: string;

  beforeAll(async () => {
    f = await hostileFixture();
    url = await listen(f.t.app);
    revoked = await f.t.login();
    await f.t.request({ method: 'POST', url: '/api/auth/logout', token: revoked });
    const gone = await f.t.createUser({ username: 'gone', role: 'user' });
    deactivated = gone.token;
    await f.t.request({
      method: 'PUT',
      url: `/api/auth/users/${gone.id}`,
      token: f.admin,
      payload: { is_active: false },
    });
  });
  afterAll(() => disposeFixture(f));
  beforeEach(async () => {
    before = await snapshot(f.t);
  });
  afterEach(async () => {
    await expectStillServing(f);
    const fresh = await connectAs(url, f.admin);
    fresh.send({ action: 'ping' });
    await fresh.next('pong');
    await fresh.close();
    expect(await snapshot(f.t)).toEqual(before);
  });

  /** Closed by the server with this code, having received nothing at all. */
  async function expectShutOut(client: LiveClient, code: number, reason?: RegExp): Promise<void> {
    const closed = await client.closed;
    expect(closed.code).toBe(code);
    if (reason) expect(closed.reason).toMatch(reason);
    expect(client.received).toEqual([]);
  }

  describe('unauthenticated sockets are closed with 1008 and sent nothing', () => {
    it('a first message that is not client_connected', async () => {
      const client = await connect(url);
      client.send({ action: 'ping' });
      client.send({ action: 'request_logs', instance_id: f.seeds.instanceId });
      await expectShutOut(client, LIVE_CLOSE_UNAUTHORIZED, /Authentication required/);
    });

    it('client_connected without a token', async () => {
      const client = await connect(url);
      client.send({ action: 'client_connected', timestamp: new Date().toISOString() });
      await expectShutOut(client, LIVE_CLOSE_UNAUTHORIZED, /Authentication required/);
    });

    it('a socket that says nothing for 5 s', async () => {
      const client = await connect(url);
      await expectShutOut(client, LIVE_CLOSE_UNAUTHORIZED, /Authentication timed out/);
    });

    it('a forged token (another key)', async () => {
      const claims = decodeJwt(f.admin);
      const forged = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub as string)
        .setJti(claims.jti as string)
        .setIssuer(claims.iss as string)
        .setAudience(claims.aud as string)
        .setExpirationTime(claims.exp as number)
        .sign(crypto.randomBytes(32));
      const client = await connect(url);
      client.send(hello(forged));
      await expectShutOut(client, LIVE_CLOSE_UNAUTHORIZED, /Session expired or invalid/);
    });

    it('an alg none token', async () => {
      const [, payload] = f.admin.split('.');
      const client = await connect(url);
      client.send(hello(`${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`));
      await expectShutOut(client, LIVE_CLOSE_UNAUTHORIZED, /Session expired or invalid/);
    });

    it('the token of a signed-out session', async () => {
      const client = await connect(url);
      client.send(hello(revoked));
      await expectShutOut(client, LIVE_CLOSE_UNAUTHORIZED, /Session expired or invalid/);
    });

    it('the token of a deactivated user', async () => {
      const client = await connect(url);
      client.send(hello(deactivated));
      await expectShutOut(client, LIVE_CLOSE_UNAUTHORIZED, /Session expired or invalid/);
    });

    it('a page from another origin, even with a valid token', async () => {
      const client = await connect(url, { origin: 'https://evil.example' });
      client.send(hello(f.admin));
      await expectShutOut(client, LIVE_CLOSE_UNAUTHORIZED, /Origin not allowed/);
    });

    it('an origin that is not even a URL', async () => {
      const client = await connect(url, { origin: 'null' });
      client.send(hello(f.admin));
      await expectShutOut(client, LIVE_CLOSE_UNAUTHORIZED, /Origin not allowed/);
    });
  });

  describe('limits', () => {
    it('a frame over 64 KiB before signing in is closed with 1009', async () => {
      const client = await connect(url);
      client.send('x'.repeat(LIVE_MAX_FRAME_BYTES + 1));
      await expectShutOut(client, MESSAGE_TOO_BIG);
    });

    it('a frame over 64 KiB after signing in is closed with 1009', async () => {
      const client = await connectAs(url, f.admin);
      client.send({ action: 'ping', timestamp: 'y'.repeat(LIVE_MAX_FRAME_BYTES) });
      expect((await client.closed).code).toBe(MESSAGE_TOO_BIG);
    });

    it('a flood right behind the sign-in is closed with 1008', async () => {
      const client = await connect(url);
      client.send(hello(f.admin));
      for (let i = 0; i < 500; i++) client.send({ action: 'ping' });
      const closed = await client.closed;
      expect(closed).toMatchObject({ code: LIVE_CLOSE_UNAUTHORIZED, reason: 'Too many messages' });
      expect(client.received.filter((m) => m.type === 'pong').length).toBeLessThan(500);
    });

    it('a flood of log requests is closed with 1008', async () => {
      const client = await connectAs(url, f.admin);
      for (let i = 0; i < 300; i++) client.send({ action: 'request_logs', instance_id: f.seeds.instanceId });
      expect((await client.closed).code).toBe(LIVE_CLOSE_UNAUTHORIZED);
    });
  });

  describe('malformed messages from a signed-in console get an error, not a crash', () => {
    async function expectErrorThenPong(client: LiveClient, pattern: RegExp): Promise<void> {
      expect((await client.next('error')).message).toMatch(pattern);
      client.send({ action: 'ping' });
      await client.next('pong');
      await client.close();
    }

    it('text that is not JSON', async () => {
      const client = await connectAs(url, f.admin);
      client.send('{"action": "ping"');
      await expectErrorThenPong(client, /Unknown or malformed message/);
    });

    it('30,000 levels of nesting', async () => {
      const client = await connectAs(url, f.admin);
      client.send(`{"action":"ping","timestamp":${'['.repeat(30_000)}${']'.repeat(30_000)}}`);
      await expectErrorThenPong(client, /Unknown or malformed message/);
    });

    it('a __proto__ key, polluting nothing', async () => {
      const client = await connectAs(url, f.admin);
      client.send('{"action":"ping","__proto__":{"polluted":true}}');
      await expectErrorThenPong(client, /Unknown or malformed message/);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('an unknown action and a wrongly typed field', async () => {
      const client = await connectAs(url, f.admin);
      client.send({ action: 'terminate_all', force: true });
      expect((await client.next('error')).message).toMatch(/Unknown or malformed message/);
      client.send({ action: 'request_logs', instance_id: 42 });
      await expectErrorThenPong(client, /Unknown or malformed message/);
    });

    it.each(['../../etc/passwd', "' OR 1=1 --", '%', 'a\u0000b'])('log request for instance %j', async (id) => {
      const client = await connectAs(url, f.admin);
      client.send({ action: 'request_logs', instance_id: id });
      const error = await client.next('error');
      expect(error.message).toMatch(/not found|Unknown or malformed message|invalid/i);
      expect(error.message).not.toMatch(/root:|SQLITE|invalid byte sequence|relation "/);
      expect(client.received.some((m) => m.type === 'instance_logs')).toBe(false);
      client.send({ action: 'ping' });
      await client.next('pong');
      await client.close();
    });
  });
});
