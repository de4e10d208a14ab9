import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_MAX_FRAME_BYTES } from '../../../contract/live';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { connectAs, listen } from './live-client';

describe('live socket /ws: limits and session end', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp();
    url = await listen(t.app);
  });
  afterAll(() => t.close());

  it('closes a socket that sends a frame over 64 KiB with 1009, saying why', async () => {
    const client = await connectAs(url, await t.login());
    client.send({ action: 'ping', timestamp: 'x'.repeat(LIVE_MAX_FRAME_BYTES + 1) });
    expect(await client.closed).toEqual({ code: 1009, reason: 'Message too large: at most 64 KiB' });
    expect(client.received.at(-1)).toEqual({ type: 'error', message: 'Message too large: at most 64 KiB' });
  });

  it('closes a frame far over the limit with 1009 before reading it all', async () => {
    const client = await connectAs(url, await t.login());
    client.send('x'.repeat(LIVE_MAX_FRAME_BYTES * 16 + 1));
    expect((await client.closed).code).toBe(1009);
  });

  it('closes a socket that floods messages', async () => {
    const client = await connectAs(url, await t.login());
    for (let i = 0; i < 200; i++) client.send({ action: 'ping' });
    expect((await client.closed).code).toBe(1008);
    expect(client.received.filter((m) => m.type === 'pong').length).toBeLessThan(200);
  });

  it('closes the socket of a session when it logs out, and only that one', async () => {
    const token = await t.login();
    const otherToken = await t.login();
    const client = await connectAs(url, token);
    const other = await connectAs(url, otherToken);
    await t.request({ method: 'POST', url: '/api/auth/logout', token });
    expect((await client.closed).code).toBe(1008);
    other.send({ action: 'ping' });
    await other.next('pong');
    await other.close();
  });

  it('closes the sockets of a user who is deactivated', async () => {
    const user = await t.createUser({ username: 'watcher' });
    const client = await connectAs(url, user.token);
    const admin = await t.login();
    await t.request({ method: 'PUT', url: `/api/auth/users/${user.id}`, token: admin, payload: { is_active: false } });
    expect((await client.closed).code).toBe(1008);
  });

  it('drops a client that stops reading instead of buffering for it without end', async () => {
    const slow = await connectAs(url, await t.login());
    expect(t.app.ctx.hub.connectionCount).toBe(1);
    slow.socket.pause();
    const line = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 800 && t.app.ctx.hub.connectionCount > 0; i++) {
      t.app.ctx.hub.publish({ type: 'error', message: line });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(t.app.ctx.hub.connectionCount).toBe(0);
    slow.socket.resume();
    await slow.closed;
    const next = await connectAs(url, await t.login());
    next.send({ action: 'ping' });
    await next.next('pong');
    await next.close();
  });

  it('delivers published messages to every signed-in client', async () => {
    const a = await connectAs(url, await t.login());
    const b = await connectAs(url, await t.login());
    t.app.ctx.hub.publish({ type: 'system_status_update', data: { status: 'degraded' } });
    expect((await a.next('system_status_update')).data.status).toBe('degraded');
    expect((await b.next('system_status_update')).data.status).toBe('degraded');
    await a.close();
    await b.close();
  });
});
