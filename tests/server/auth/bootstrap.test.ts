import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../../server/app';
import { ConfigError, loadConfig } from '../../../server/config';
import { createPostgresDatabase } from '../../../testkit/test-database';

describe('the first superuser', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** An app on an empty database, without the superuser the usual test app creates. */
  async function emptyApp(): Promise<{ app: App; dataDir: string }> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-bootstrap-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const pg = process.env.TEST_DATABASE_URL ? await createPostgresDatabase(process.env.TEST_DATABASE_URL) : undefined;
    if (pg) cleanups.push(() => pg.drop());
    const config = {
      ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
      consoleDir: undefined,
      databaseUrl: pg?.url,
    };
    const app = await buildApp(config, { logger: false });
    cleanups.push(() => app.close());
    return { app, dataDir };
  }

  it('gets a random password, returned once and written to DATA_DIR/initial-admin-password with mode 0600', async () => {
    const { app, dataDir } = await emptyApp();
    const result = await app.ctx.users.bootstrapSuperuser({ username: 'admin', dataDir });
    const password = result?.generatedPassword;
    expect(password).toMatch(/^\S{12,}$/);
    const file = path.join(dataDir, 'initial-admin-password');
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(password);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin', password },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ is_superuser: true, is_active: true, generated_credentials: true });

    // A second start finds users and changes nothing.
    expect(await app.ctx.users.bootstrapSuperuser({ username: 'other', dataDir })).toBeUndefined();
    expect((await app.ctx.users.list()).map((u) => u.username)).toEqual(['admin']);
  });

  it('uses ADMIN_PASSWORD when set and writes no password file', async () => {
    const { app, dataDir } = await emptyApp();
    expect(await app.ctx.users.bootstrapSuperuser({ username: 'ops', password: 'Chosen-pass-1', dataDir })).toEqual({});
    expect(fs.existsSync(path.join(dataDir, 'initial-admin-password'))).toBe(false);
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'ops', password: 'Chosen-pass-1' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ generated_credentials: false });
  });

  it('says the generated password is still in use on every user read until the account changes it', async () => {
    const { app, dataDir } = await emptyApp();
    const password = (await app.ctx.users.bootstrapSuperuser({ username: 'admin', dataDir }))?.generatedPassword ?? '';
    const token = (
      await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password } })
    ).json<{ access_token: string }>().access_token;
    const headers = { authorization: `Bearer ${token}` };
    const verify = async () =>
      (await app.inject({ method: 'GET', url: '/api/auth/verify-token', headers })).json<{
        user: { generated_credentials: boolean };
      }>().user;
    expect((await verify()).generated_credentials).toBe(true);
    const created = await app.inject({
      method: 'POST',
      url: '/api/auth/users',
      headers,
      payload: { username: 'second', email: 'second@example.com', password: 'Second-pass-1' },
    });
    expect(created.json<{ data: { generated_credentials: boolean } }>().data.generated_credentials).toBe(false);

    const changed = await app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers,
      payload: { current_password: password, new_password: 'Own-choice-pass-1' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await verify()).generated_credentials).toBe(false);
    const users = (await app.inject({ method: 'GET', url: '/api/auth/users', headers })).json<{
      users: { generated_credentials: boolean }[];
    }>().users;
    expect(users.map((user) => user.generated_credentials)).toEqual([false, false]);
  });

  it('clears the flag when another superuser resets that password', async () => {
    const { app, dataDir } = await emptyApp();
    await app.ctx.users.bootstrapSuperuser({ username: 'admin', dataDir });
    const [admin] = await app.ctx.users.list();
    expect(admin.generated_credentials).toBe(true);
    await app.ctx.users.setPassword(admin.id, 'Reset-by-other-1');
    expect((await app.ctx.users.list())[0].generated_credentials).toBe(false);
  });

  it('refuses an unusable ADMIN_USERNAME, ADMIN_PASSWORD or PORT at start with a list of problems', () => {
    let error: unknown;
    try {
      loadConfig({ ADMIN_USERNAME: 'two words', ADMIN_PASSWORD: 'short', PORT: 'eighty' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/ADMIN_USERNAME/);
    expect(problems).toMatch(/ADMIN_PASSWORD must be at least 8 characters/);
    expect(problems).toMatch(/PORT/);
    expect(loadConfig({ PORT: '' }).port).toBe(8000);
  });
});
