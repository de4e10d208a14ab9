import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GithubConfigureResponse, GithubStatus, GithubValidationResult } from '../../../contract/github';
import { GITHUB_DEFAULT_EMAIL, GITHUB_DEFAULT_USER } from '../../../contract/github';
import { buildApp } from '../../../server/app';
import { KEY_FINGERPRINT_SETTING } from '../../../server/lib/key-fingerprint';
import { freePort } from '../../../testkit/ports';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { RATE_LIMIT_RESET_EPOCH, startFakeGithub } from './fake-github';

const GOOD = 'ghp_GoodToken0123456789abcdefABCDEF';
const SECRETS = {
  good: GOOD,
  noScope: 'ghp_NoScopeToken0123456789abcdef',
  fineGrained: 'github_pat_FineGrained0123456789',
  limited: 'ghp_RateLimited0123456789abcdef',
  limited429: 'ghp_SecondaryLimit0123456789abc',
  unknown: 'ghp_NotAKnownToken0123456789xyz',
};
const PRIVATE_REPO = 'https://github.com/acme/sermons';
const READONLY_REPO = 'https://github.com/acme/readonly.git';

type Body<T> = { success: true; data: T };

describe('repository access', () => {
  let fake: Awaited<ReturnType<typeof startFakeGithub>>;
  let t: TestApp;
  let admin: string;
  const logLines: string[] = [];
  const bodies: string[] = [];

  const call = async (options: Parameters<TestApp['request']>[0]): Promise<LightMyRequestResponse> => {
    const response = await t.request(options);
    bodies.push(response.body);
    return response;
  };
  const validate = async (payload?: object) => {
    const response = await call({ method: 'POST', url: '/api/github/validate', token: admin, payload });
    expect(response.statusCode).toBe(200);
    return response.json<Body<GithubValidationResult>>().data;
  };
  const status = async () => {
    const response = await call({ method: 'GET', url: '/api/github/status', token: admin });
    expect(response.statusCode).toBe(200);
    return response.json<Body<GithubStatus>>().data;
  };

  beforeAll(async () => {
    fake = await startFakeGithub({
      tokens: {
        [SECRETS.good]: { login: 'recorder', scopes: 'repo, read:user' },
        [SECRETS.noScope]: { login: 'recorder', scopes: 'read:user' },
        [SECRETS.fineGrained]: { login: 'recorder' },
        [SECRETS.limited]: { login: 'recorder', rateLimited: 403 },
        [SECRETS.limited429]: { login: 'recorder', rateLimited: 429 },
      },
      repos: [
        { owner: 'acme', name: 'sermons', private: true, pushers: ['recorder'] },
        { owner: 'acme', name: 'readonly', private: false, default_branch: 'trunk', pushers: [] },
      ],
    });
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    t = await createTestApp({
      env: { GITHUB_API_URL: fake.url },
      build: { logger: { level: 'trace', stream }, healthCheckIntervalMs: 0 },
    });
    admin = await t.login();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('reports nothing configured at first, and refuses to validate nothing', async () => {
    const s = await status();
    expect(s.overall_status).toBe('not_configured');
    expect(s.configuration).toMatchObject({ status: 'not_configured', pat_configured: false, repo_url: null });
    expect(s.github_access.status).toBe('not_checked');
    const response = await call({ method: 'POST', url: '/api/github/validate', token: admin });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(/not configured/);
  });

  it('validates a token that can push to a private repository', async () => {
    const result = await validate({ github_pat: GOOD, github_repo_url: PRIVATE_REPO });
    expect(result.overall_status).toBe('success');
    expect(result.reason).toBeNull();
    expect(result.checks.github_api.status).toBe('success');
    expect(result.checks.repository_access.status).toBe('success');
    expect(result.checks.permissions).toMatchObject({ status: 'success', push: true });
    expect(result.user_info?.login).toBe('recorder');
    expect(result.repository_info).toMatchObject({
      full_name: 'acme/sermons',
      private: true,
      permissions: { push: true },
    });
    expect(result.token_scopes).toEqual(['repo', 'read:user']);
    expect(fake.seenAuthorization.at(-1)).toBe(`token ${GOOD}`);
  });

  it('reports a bad token (401) and skips the rest', async () => {
    const result = await validate({ github_pat: SECRETS.unknown, github_repo_url: PRIVATE_REPO });
    expect(result.overall_status).toBe('error');
    expect(result.reason).toBe('bad_token');
    expect(result.checks.github_api).toMatchObject({ status: 'error', reason: 'bad_token' });
    expect(result.checks.github_api.message).toMatch(/401/);
    expect(result.checks.repository_access.status).toBe('skipped');
    expect(result.checks.permissions).toMatchObject({ status: 'skipped', push: false });
  });

  it('reports a repository the token can read but not push to', async () => {
    const result = await validate({ github_pat: GOOD, github_repo_url: READONLY_REPO });
    expect(result.overall_status).toBe('error');
    expect(result.reason).toBe('no_push_permission');
    expect(result.checks.repository_access.status).toBe('success');
    expect(result.checks.permissions).toMatchObject({ status: 'error', reason: 'no_push_permission', push: false });
    expect(result.repository_info).toMatchObject({
      full_name: 'acme/readonly',
      default_branch: 'trunk',
      permissions: { push: false },
    });
  });

  it('reports a repository that does not exist (404)', async () => {
    const result = await validate({ github_pat: GOOD, github_repo_url: 'https://github.com/acme/missing' });
    expect(result.reason).toBe('not_found');
    expect(result.checks.repository_access).toMatchObject({ status: 'error', reason: 'not_found' });
    expect(result.checks.repository_access.message).toContain('acme/missing');
    expect(result.checks.permissions.status).toBe('skipped');
  });

  it('names the missing repo scope when a private repository is invisible to the token', async () => {
    const result = await validate({ github_pat: SECRETS.noScope, github_repo_url: PRIVATE_REPO });
    expect(result.reason).toBe('missing_scope');
    expect(result.checks.repository_access.message).toMatch(/repo scope/);
    expect(result.token_scopes).toEqual(['read:user']);
  });

  it('trusts repository permissions for a token that reports no scopes (fine-grained)', async () => {
    const result = await validate({ github_pat: SECRETS.fineGrained, github_repo_url: PRIVATE_REPO });
    expect(result.overall_status).toBe('success');
    expect(result.token_scopes).toBeNull();
  });

  it('reports GitHub rate limits with the reset time', async () => {
    const primary = await validate({ github_pat: SECRETS.limited, github_repo_url: PRIVATE_REPO });
    expect(primary.reason).toBe('rate_limited');
    const resetAt = new Date(RATE_LIMIT_RESET_EPOCH * 1000).toISOString();
    expect(primary.rate_limit_reset).toBe(resetAt);
    expect(primary.checks.github_api.message).toContain(resetAt);

    const secondary = await validate({ github_pat: SECRETS.limited429, github_repo_url: PRIVATE_REPO });
    expect(secondary.reason).toBe('rate_limited');
    expect(secondary.rate_limit_reset).toBe(new Date(t.clock.now().getTime() + 60_000).toISOString());
  });

  it('refuses bad input before asking GitHub', async () => {
    const before = fake.seenAuthorization.length;
    for (const payload of [
      { github_pat: GOOD, github_repo_url: 'not a url' },
      { github_pat: 'has space', github_repo_url: PRIVATE_REPO },
      { github_pat: '', github_repo_url: PRIVATE_REPO },
      { github_pat: GOOD, github_repo_url: PRIVATE_REPO, extra: 1 },
    ]) {
      const response = await call({ method: 'POST', url: '/api/github/configure', token: admin, payload });
      expect(response.statusCode).toBe(400);
    }
    expect(fake.seenAuthorization.length).toBe(before);
  });

  it('lets only superusers configure', async () => {
    const { token } = await t.createUser({ username: 'operator' });
    const response = await call({
      method: 'POST',
      url: '/api/github/configure',
      token,
      payload: { github_pat: GOOD, github_repo_url: PRIVATE_REPO },
    });
    expect(response.statusCode).toBe(403);
    // Reading the status and validating are open to any signed-in operator.
    expect((await call({ method: 'GET', url: '/api/github/status', token })).statusCode).toBe(200);
    expect((await call({ method: 'GET', url: '/api/github/status' })).statusCode).toBe(401);
  });

  it('does not save a token that fails validation', async () => {
    const response = await call({
      method: 'POST',
      url: '/api/github/configure',
      token: admin,
      payload: { github_pat: GOOD, github_repo_url: READONLY_REPO },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(/^GitHub access was not saved: .*cannot push/);
    expect((await status()).overall_status).toBe('not_configured');
  });

  it('saves a working configuration, encrypted, and reports it', async () => {
    const response = await call({
      method: 'POST',
      url: '/api/github/configure',
      token: admin,
      payload: { github_pat: GOOD, github_repo_url: PRIVATE_REPO, github_user: '' },
    });
    expect(response.statusCode).toBe(200);
    const data = response.json<GithubConfigureResponse>().data;
    expect(data.message).toBe('GitHub configuration saved successfully');
    expect(data.validation.overall_status).toBe('success');
    expect(data.status.configuration).toMatchObject({
      status: 'configured',
      pat_configured: true,
      repo_url: PRIVATE_REPO,
      github_user: GITHUB_DEFAULT_USER,
      github_email: GITHUB_DEFAULT_EMAIL,
      configured_by: 'admin',
    });

    const s = await status();
    expect(s.overall_status).toBe('healthy');
    expect(s.github_access.status).toBe('connected');
    expect(s.repository_info).toEqual({
      name: 'sermons',
      owner: 'acme',
      full_name: 'acme/sermons',
      private: true,
      default_branch: 'main',
    });
    expect(s.last_checked).toBe(t.clock.now().toISOString());

    const rows = await t.app.ctx.db.kysely.selectFrom('settings').selectAll().execute();
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(GOOD);
    expect(stored).not.toContain(Buffer.from(GOOD).toString('base64'));
    expect(await t.app.ctx.github.openToken()).toBe(GOOD);
  });

  it('validates the saved configuration and re-checks a stale status', async () => {
    expect((await validate()).overall_status).toBe('success');
    const calls = fake.seenAuthorization.length;
    await status();
    expect(fake.seenAuthorization.length).toBe(calls); // fresh: no new call
    t.clock.advance(6 * 60_000);
    const s = await status();
    expect(fake.seenAuthorization.length).toBeGreaterThan(calls);
    expect(s.last_checked).toBe(t.clock.now().toISOString());
  });

  it('says so loudly when the saved token cannot be decrypted with the current key', async () => {
    // The key replaced on purpose: its fingerprint removed, as docs/operations/postgresql.md says.
    await t.app.ctx.db.kysely.deleteFrom('settings').where('key', '=', KEY_FINGERPRINT_SETTING).execute();
    const other = await buildApp(
      { ...t.config, secretKey: 'a-different-secret-key-of-32-characters!' },
      { logger: false, clock: t.clock, healthCheckIntervalMs: 0 },
    );
    try {
      const session = await other.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'admin', password: 'Admin-pass-1' },
      });
      const token = session.json<{ access_token: string }>().access_token;
      t.clock.advance(6 * 60_000);
      const statusResponse = await other.inject({
        method: 'GET',
        url: '/api/github/status',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(statusResponse.json<Body<GithubStatus>>().data.github_access).toMatchObject({ status: 'error' });
      expect(statusResponse.json<Body<GithubStatus>>().data.github_access.message).toMatch(/cannot be decrypted/);
      const validateResponse = await other.inject({
        method: 'POST',
        url: '/api/github/validate',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(validateResponse.statusCode).toBe(409);
      expect(validateResponse.json().detail).toMatch(/cannot be decrypted/);
      bodies.push(statusResponse.body, validateResponse.body);
    } finally {
      await other.close();
    }
  });

  it('records the configuration in the activity log', async () => {
    const entries = await t.app.ctx.activity.latest(50, undefined, { superuser: true });
    const configured = entries.filter((e) => e.action === 'github.configure');
    expect(configured).toHaveLength(1);
    expect(configured[0]).toMatchObject({
      actor: { username: 'admin' },
      target: { type: 'repository', id: 'acme/sermons' },
    });
    expect(JSON.stringify(configured[0])).not.toContain(GOOD);
  });

  it('never puts a token in a response body or a log line', () => {
    expect(bodies.length).toBeGreaterThan(10);
    expect(logLines.length).toBeGreaterThan(10);
    for (const secret of Object.values(SECRETS)) {
      for (const body of bodies) expect(body).not.toContain(secret);
      for (const line of logLines) expect(line).not.toContain(secret);
    }
  });
});

describe('repository access when GitHub cannot be reached', () => {
  it('reports the network failure', async () => {
    const port = await freePort();
    const t = await createTestApp({
      env: { GITHUB_API_URL: `http://127.0.0.1:${port}` },
      build: { healthCheckIntervalMs: 0 },
    });
    try {
      const admin = await t.login();
      const response = await t.request({
        method: 'POST',
        url: '/api/github/validate',
        token: admin,
        payload: { github_pat: GOOD, github_repo_url: PRIVATE_REPO },
      });
      const result = response.json<Body<GithubValidationResult>>().data;
      expect(result.reason).toBe('unreachable');
      expect(result.checks.github_api.message).toMatch(/Could not reach GitHub.*ECONNREFUSED/);
      expect(result.checks.repository_access.status).toBe('skipped');
      const configure = await t.request({
        method: 'POST',
        url: '/api/github/configure',
        token: admin,
        payload: { github_pat: GOOD, github_repo_url: PRIVATE_REPO },
      });
      expect(configure.statusCode).toBe(503);
      expect(configure.body).not.toContain(GOOD);
    } finally {
      await t.close();
    }
  });
});
