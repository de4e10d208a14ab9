import { afterAll, describe, expect, it } from 'vitest';
import { startFakeGithub } from '../server/github/fake-github';
import { spawnServer, temporaryDir, type ServerProcess } from './support/server';

const TOKEN = 'ghp_faultsuitetoken000000000000000000000';
const REPO_URL = 'https://github.com/capture-ops/recordings';

interface Validation {
  overall_status: string;
  reason: string | null;
  checks: { github_api: { status: string; message: string; reason: string | null } };
}

interface Status {
  overall_status: string;
  configuration: { status: string; configured_at: string | null };
  github_access: { status: string; reason: string | null; message: string | null };
}

/**
 * GitHub unreachable under the real server (its API URL pointing at a port where nothing listens any
 * more): validation says the network is unreachable, the saved status turns unhealthy with that
 * reason, a new configuration is refused with 503 and saves nothing, and everything else keeps working.
 */
describe('GitHub unreachable', () => {
  const dataDir = temporaryDir('github');
  let server: ServerProcess | undefined;
  let github: Awaited<ReturnType<typeof startFakeGithub>> | undefined;

  afterAll(async () => {
    await server?.kill('SIGKILL');
    await github?.close().catch(() => undefined);
  });

  it('reports unreachable, turns unhealthy, refuses to save, and nothing crashes', async () => {
    github = await startFakeGithub({
      tokens: { [TOKEN]: { login: 'capture-bot', scopes: 'repo' } },
      repos: [{ owner: 'capture-ops', name: 'recordings', private: true, pushers: ['capture-bot'] }],
    });
    server = await spawnServer({ dataDir, env: { GITHUB_API_URL: github.url } });
    const api = server;
    const token = await api.login();
    const configured = await api.request('POST', '/api/github/configure', {
      token,
      body: { github_pat: TOKEN, github_repo_url: REPO_URL },
    });
    expect(configured.status, configured.text).toBe(200);
    const before = (await api.request<{ data: Status }>('GET', '/api/github/status', { token })).body.data;
    expect(before).toMatchObject({ overall_status: 'healthy', github_access: { status: 'connected' } });

    await github.close();
    github = undefined;

    const validated = await api.request<{ data: Validation }>('POST', '/api/github/validate', { token });
    expect(validated.status, validated.text).toBe(200);
    expect(validated.body.data).toMatchObject({
      overall_status: 'error',
      reason: 'unreachable',
      checks: { github_api: { status: 'error', reason: 'unreachable' } },
    });
    expect(validated.body.data.checks.github_api.message).toMatch(
      /^Could not reach GitHub at http:\/\/127\.0\.0\.1:\d+/,
    );

    const status = (await api.request<{ data: Status }>('GET', '/api/github/status', { token })).body.data;
    expect(status).toMatchObject({
      overall_status: 'unhealthy',
      github_access: { status: 'error', reason: 'unreachable' },
    });
    expect(status.configuration.configured_at).toBe(before.configuration.configured_at);

    const reconfigure = await api.request<{ detail: string }>('POST', '/api/github/configure', {
      token,
      body: {
        github_pat: 'ghp_anothertoken00000000000000000000000',
        github_repo_url: 'https://github.com/capture-ops/other',
      },
    });
    expect(reconfigure.status).toBe(503);
    expect(reconfigure.body.detail).toMatch(/^GitHub access was not saved: Could not reach GitHub/);
    const after = (
      await api.request<{ data: Status & { configuration: { repo_url: string } } }>('GET', '/api/github/status', {
        token,
      })
    ).body.data;
    expect(after.configuration).toMatchObject({
      repo_url: REPO_URL,
      configured_at: before.configuration.configured_at,
    });
    expect(JSON.stringify(after)).not.toContain(TOKEN);

    expect(api.running(), api.output()).toBe(true);
    expect((await api.request('GET', '/api/monitoring/system', { token })).status).toBe(200);
    await api.stop();
    server = undefined;
  });
});
