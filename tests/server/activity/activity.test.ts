import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../contract/activity';
import { ADMIN, createTestApp, type TestApp } from '../helpers/test-app';

describe('activity log', () => {
  let t: TestApp;
  let admin: string;

  const entries = async (query = ''): Promise<ActivityEntry[]> => {
    const response = await t.request({ method: 'GET', url: `/api/activity${query}`, token: admin });
    expect(response.statusCode).toBe(200);
    return response.json<{ data: { entries: ActivityEntry[] } }>().data.entries;
  };
  /** Runs an action and returns the entries it added (newest first). */
  const added = async (action: () => Promise<unknown>): Promise<ActivityEntry[]> => {
    const before = (await entries('?limit=1'))[0]?.id ?? 0;
    await action();
    return (await entries('?limit=200')).filter((e) => e.id > before);
  };

  beforeAll(async () => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
    admin = await t.login();
  });
  afterAll(() => t.close());

  it('is readable by signed-in operators only', async () => {
    expect((await t.request({ method: 'GET', url: '/api/activity' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/activity?limit=0', token: admin })).statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/api/activity?limit=201', token: admin })).statusCode).toBe(400);
  });

  it('records a sign-in', async () => {
    const [entry, ...rest] = await added(() => t.login());
    expect(rest).toHaveLength(0);
    expect(entry).toMatchObject({
      action: 'auth.login',
      actor: { username: 'admin' },
      target: { type: 'user', id: 'admin' },
      summary: 'admin signed in',
    });
    expect(entry.actor?.id).toEqual(expect.any(Number));
    expect(entry.at).toBe(t.clock.now().toISOString());
  });

  it('records failed sign-ins without the typed text of unknown names', async () => {
    const known = await added(() =>
      t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'admin', password: 'wrong-password-1' },
      }),
    );
    expect(known).toHaveLength(1);
    expect(known[0]).toMatchObject({
      action: 'auth.login_failed',
      actor: null,
      target: { type: 'user', id: 'admin' },
      summary: 'Failed sign-in as admin',
    });

    const unknown = await added(() =>
      t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'Secret-Looking-Name', password: 'whatever-1' },
      }),
    );
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toMatchObject({
      action: 'auth.login_failed',
      target: { id: '?', label: 'an unknown username' },
    });
    expect(JSON.stringify(unknown[0])).not.toContain('Secret-Looking-Name');
    expect(JSON.stringify([...known, ...unknown])).not.toMatch(/wrong-password-1|whatever-1/);
  });

  it('records user creation, by either route, with who created whom', async () => {
    const created = await added(() =>
      t.request({
        method: 'POST',
        url: '/api/auth/users',
        token: admin,
        payload: { username: 'fatima', email: 'fatima@example.com', password: 'Fatima-pass-1', role: 'user' },
      }),
    );
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      action: 'user.create',
      actor: { username: 'admin' },
      target: { type: 'user', id: 'fatima' },
      detail: { role: 'user' },
    });
    expect(created[0].summary).toBe('admin created user fatima');

    const registered = await added(() =>
      t.request({
        method: 'POST',
        url: '/api/auth/register',
        token: admin,
        payload: { username: 'omar', email: 'omar@example.com', password: 'Omar-pass-12' },
      }),
    );
    expect(registered).toHaveLength(1);
    expect(registered[0]).toMatchObject({ action: 'user.create', target: { id: 'omar' } });
    expect(JSON.stringify([...created, ...registered])).not.toMatch(/Fatima-pass-1|Omar-pass-12|password_hash/);
  });

  it('records what a user update changed, and a password only as changed', async () => {
    const id = (await t.request({ method: 'GET', url: '/api/auth/users', token: admin }))
      .json<{ users: { id: number; username: string }[] }>()
      .users.find((u) => u.username === 'fatima')!.id;
    const [entry, ...rest] = await added(() =>
      t.request({
        method: 'PUT',
        url: `/api/auth/users/${id}`,
        token: admin,
        payload: { role: 'admin', email: 'fatima@example.com', password: 'Brand-new-pass-9' },
      }),
    );
    expect(rest).toHaveLength(0);
    expect(entry).toMatchObject({
      action: 'user.update',
      actor: { username: 'admin' },
      target: { type: 'user', id: 'fatima' },
      detail: { changed: ['role', 'password'], changes: { role: { from: 'user', to: 'admin' } } },
    });
    expect(JSON.stringify(entry)).not.toContain('Brand-new-pass-9');

    const [toggle] = await added(() =>
      t.request({ method: 'PUT', url: `/api/auth/users/${id}`, token: admin, payload: { is_active: false } }),
    );
    expect(toggle.detail).toEqual({ changed: ['is_active'], changes: { is_active: { from: true, to: false } } });
  });

  it('records a password change and a sign-out by the user themself', async () => {
    const { token } = await t.createUser({ username: 'yusuf', password: 'Yusuf-pass-1' });
    const changed = await added(() =>
      t.request({
        method: 'POST',
        url: '/api/auth/change-password',
        token,
        payload: { current_password: 'Yusuf-pass-1', new_password: 'Yusuf-pass-2' },
      }),
    );
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({
      action: 'auth.password_change',
      actor: { username: 'yusuf' },
      target: { id: 'yusuf' },
    });
    expect(JSON.stringify(changed)).not.toMatch(/Yusuf-pass/);

    const out = await added(() => t.request({ method: 'POST', url: '/api/auth/logout', token }));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ action: 'auth.logout', actor: { username: 'yusuf' }, summary: 'yusuf signed out' });
  });

  it('takes entries from other modules, naming author and target, and scrubs secrets from details', async () => {
    const adminRow = (await t.app.ctx.users.findRowByUsername(ADMIN.username))!;
    const recorded = await added(async () => {
      await t.app.ctx.activity.record({
        actor: adminRow,
        action: 'instance.launch',
        target: { type: 'instance', id: 'i-0abc123' },
        detail: { url: 'https://example.org/live', duration: 7200, api_token: 'tok-123', nested: { password: 'p' } },
      });
      await t.app.ctx.activity.record({ actor: null, action: 'scheduler.start' });
      await t.app.ctx.activity.record({
        actor: adminRow,
        action: 'mosque.update',
        target: { type: 'mosque', id: 'abc123defg', label: 'East London Mosque' },
      });
    });
    expect(recorded.map((e) => e.summary)).toEqual([
      'admin updated mosque East London Mosque',
      'System started the scheduler',
      'admin launched instance i-0abc123',
    ]);
    expect(recorded[2].detail).toEqual({
      url: 'https://example.org/live',
      duration: 7200,
      api_token: '[redacted]',
      nested: { password: '[redacted]' },
    });
    expect(recorded[1]).toMatchObject({ actor: null, target: null, detail: null });
  });

  it('lists newest first, with a limit and paging back', async () => {
    const all = await entries('?limit=200');
    expect(all.length).toBeGreaterThan(8);
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => b - a));
    const page = await entries('?limit=3');
    expect(page.map((e) => e.id)).toEqual(all.slice(0, 3).map((e) => e.id));
    const next = await entries(`?limit=3&before=${page[2].id}`);
    expect(next.map((e) => e.id)).toEqual(all.slice(3, 6).map((e) => e.id));
    expect((await entries()).length).toBe(Math.min(50, all.length));
  });
});
