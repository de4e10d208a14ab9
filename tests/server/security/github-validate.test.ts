import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGithub } from '../github/fake-github';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { expectRefused } from './hostile-support';

const SAVED_TOKEN = 'ghp_SavedToken0123456789abcdefABCDEF';
const OWN_TOKEN = 'ghp_OwnToken0123456789abcdefABCDEFGH';

/**
 * The saved GitHub token is the server's: a non-superuser may check it against the saved repository
 * (Validate Access) but not point it, or anything else, at another repository.
 */
describe('hostile input: GitHub validation with the saved token', () => {
  let fake: Awaited<ReturnType<typeof startFakeGithub>>;
  let t: TestApp;
  let admin: string;
  let user: string;

  beforeAll(async () => {
    fake = await startFakeGithub({
      tokens: {
        [SAVED_TOKEN]: { login: 'recorder', scopes: 'repo' },
        [OWN_TOKEN]: { login: 'someone', scopes: 'repo' },
      },
      repos: [
        { owner: 'acme', name: 'sermons', private: true, pushers: ['recorder'] },
        { owner: 'victim', name: 'private-stuff', private: true, pushers: ['recorder'] },
      ],
    });
    t = await createTestApp({ env: { GITHUB_API_URL: fake.url }, build: { healthCheckIntervalMs: 0 } });
    admin = await t.login();
    user = (await t.createUser({ username: 'operator' })).token;
    const saved = await t.request({
      method: 'POST',
      url: '/api/github/configure',
      token: admin,
      payload: { github_pat: SAVED_TOKEN, github_repo_url: 'https://github.com/acme/sermons' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const validate = (token: string, payload?: object) =>
    t.request({ method: 'POST', url: '/api/github/validate', token, payload });

  it('lets an operator validate the saved configuration', async () => {
    const response = await validate(user);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.overall_status).toBe('success');
    expect((await validate(user, { github_repo_url: 'https://github.com/ACME/sermons.git' })).statusCode).toBe(200);
  });

  it.each([
    ['another repository with the saved token', { github_repo_url: 'https://github.com/victim/private-stuff' }],
    [
      'another repository with their own token',
      { github_pat: OWN_TOKEN, github_repo_url: 'https://github.com/victim/private-stuff' },
    ],
    ['another host', { github_repo_url: 'https://github.example.com/acme/sermons' }],
  ])('refuses an operator %s (403), before any call to GitHub', async (_name, payload) => {
    const calls = fake.seenAuthorization.length;
    expectRefused(
      await validate(user, payload),
      403,
      'Only a superuser may validate a repository other than the saved one',
    );
    expect(fake.seenAuthorization.length).toBe(calls);
  });

  it('lets a superuser validate any repository', async () => {
    const response = await validate(admin, { github_repo_url: 'https://github.com/victim/private-stuff' });
    expect(response.statusCode).toBe(200);
  });
});
