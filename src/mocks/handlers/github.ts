import { http, HttpResponse } from 'msw';
import {
  GITHUB_DEFAULT_EMAIL,
  GITHUB_DEFAULT_USER,
  githubConfigureRequestSchema,
  githubValidateRequestSchema,
  parseRepositoryUrl,
  type GithubConfigureResponse,
  type GithubFailureReason,
  type GithubStatus,
  type GithubValidationResult,
} from '../../../contract/github';
import { authorize, errorResponse, readJson } from '../http';
import { store, type MockStore } from '../store';
import { recordMockActivity } from './activity';

/**
 * Repository access in the mocks. GitHub itself is imitated by the token's name:
 * MOCK_GITHUB_TOKENS.valid passes every check, .badCredentials is refused (401), .readOnly cannot push;
 * a repository whose name is "missing" is not found. Any other token passes.
 */
export const MOCK_GITHUB_TOKENS = { valid: 'ghp_mockValidToken123', badCredentials: 'ghp_bad', readOnly: 'ghp_readonly' } as const;
export const MOCK_GITHUB_API = 'https://api.github.com';

interface SavedConfig {
  repo_url: string;
  github_user: string;
  github_email: string;
  configured_at: string;
  configured_by: string;
  token: string;
}

export interface GithubMockState {
  config: SavedConfig | null;
  lastCheck: GithubValidationResult | null;
}

const states = new WeakMap<MockStore, GithubMockState>();

export function githubMock(): GithubMockState {
  let state = states.get(store);
  if (!state) {
    state = { config: null, lastCheck: null };
    states.set(store, state);
  }
  return state;
}

/** The checks the server runs, imitated. */
export function mockValidate(token: string, repoUrl: string): GithubValidationResult {
  const ref = parseRepositoryUrl(repoUrl);
  const now = new Date().toISOString();
  const base = { user_info: null, repository_info: null, token_scopes: null, rate_limit_reset: null, api_url: MOCK_GITHUB_API, checked_at: now };
  const skipped = (message: string) => ({ status: 'skipped' as const, message, reason: null });
  const fail = (reason: GithubFailureReason, message: string) => ({ status: 'error' as const, message, reason });
  if (token === MOCK_GITHUB_TOKENS.badCredentials || !ref) {
    return {
      ...base,
      overall_status: 'error',
      reason: 'bad_token',
      checks: {
        github_api: fail('bad_token', 'GitHub refused the token (401 Bad credentials): it is wrong, expired or revoked'),
        repository_access: skipped('Not checked: the token was refused'),
        permissions: { ...skipped('Not checked: the token was refused'), push: false },
      },
    };
  }
  const login = 'capture-operator';
  const github_api = { status: 'success' as const, message: `Authenticated as ${login}`, reason: null };
  const scopes = ['repo'];
  if (ref.repo === 'missing') {
    return {
      ...base,
      user_info: { login, name: null },
      token_scopes: scopes,
      overall_status: 'error',
      reason: 'not_found',
      checks: {
        github_api,
        repository_access: fail('not_found', `Repository ${ref.owner}/${ref.repo} was not found, or the token cannot see it`),
        permissions: { ...skipped('Not checked: the repository is not accessible'), push: false },
      },
    };
  }
  const push = token !== MOCK_GITHUB_TOKENS.readOnly;
  const full_name = `${ref.owner}/${ref.repo}`;
  return {
    ...base,
    user_info: { login, name: 'Capture Operator' },
    token_scopes: scopes,
    repository_info: { full_name, private: true, default_branch: 'main', permissions: { push, pull: true, admin: false } },
    overall_status: push ? 'success' : 'error',
    reason: push ? null : 'no_push_permission',
    checks: {
      github_api,
      repository_access: { status: 'success', message: `Repository ${full_name} is accessible`, reason: null },
      permissions: push
        ? { status: 'success', message: 'The token can push to the repository', reason: null, push: true }
        : { status: 'error', message: 'The token can read the repository but not push to it', reason: 'no_push_permission', push: false },
    },
  };
}

function firstFailure(result: GithubValidationResult): string | null {
  const failed = Object.values(result.checks).find((check) => check.status === 'error');
  return failed?.message ?? null;
}

export function mockGithubStatus(): GithubStatus {
  const { config, lastCheck } = githubMock();
  if (!config) {
    return {
      configuration: { status: 'not_configured', pat_configured: false, repo_url: null, github_user: null, github_email: null, configured_at: null, configured_by: null },
      github_access: { status: 'not_checked', message: null, reason: null },
      overall_status: 'not_configured',
      repository_info: null,
      last_checked: null,
      api_url: MOCK_GITHUB_API,
    };
  }
  const ok = lastCheck?.overall_status === 'success';
  const repo = lastCheck?.repository_info;
  return {
    configuration: {
      status: 'configured',
      pat_configured: true,
      repo_url: config.repo_url,
      github_user: config.github_user,
      github_email: config.github_email,
      configured_at: config.configured_at,
      configured_by: config.configured_by,
    },
    github_access: lastCheck
      ? { status: ok ? 'connected' : 'error', message: firstFailure(lastCheck) ?? lastCheck.checks.permissions.message, reason: lastCheck.reason }
      : { status: 'not_checked', message: null, reason: null },
    overall_status: ok ? 'healthy' : 'unhealthy',
    repository_info: repo
      ? { name: repo.full_name.split('/')[1], owner: repo.full_name.split('/')[0], full_name: repo.full_name, private: repo.private, default_branch: repo.default_branch }
      : null,
    last_checked: lastCheck?.checked_at ?? null,
    api_url: MOCK_GITHUB_API,
  };
}

/** Saves a configuration without a request (tests start from a configured state). */
export function configureMockGithub(repoUrl = 'https://github.com/capture-org/recordings', token: string = MOCK_GITHUB_TOKENS.valid): void {
  const state = githubMock();
  state.config = {
    repo_url: repoUrl,
    github_user: GITHUB_DEFAULT_USER,
    github_email: GITHUB_DEFAULT_EMAIL,
    configured_at: new Date().toISOString(),
    configured_by: 'admin',
    token,
  };
  state.lastCheck = mockValidate(token, repoUrl);
}

export const githubHandlers = [
  http.get('/api/github/status', ({ request }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    return HttpResponse.json({ success: true as const, data: mockGithubStatus() });
  }),

  http.post('/api/github/validate', async ({ request }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const parsed = githubValidateRequestSchema.safeParse(await readJson(request));
    if (!parsed.success) return errorResponse(400, parsed.error.issues[0]?.message ?? 'Invalid request');
    const state = githubMock();
    const token = parsed.data?.github_pat ?? state.config?.token;
    const repoUrl = parsed.data?.github_repo_url ?? state.config?.repo_url;
    if (!token || !repoUrl) return errorResponse(400, 'GitHub access is not configured: give a token and a repository URL');
    const result = mockValidate(token, repoUrl);
    if (state.config && !parsed.data?.github_pat && !parsed.data?.github_repo_url) state.lastCheck = result;
    return HttpResponse.json({ success: true as const, data: result });
  }),

  http.post('/api/github/configure', async ({ request }) => {
    const actor = authorize(request, 'superuser');
    if (actor instanceof Response) return actor;
    const parsed = githubConfigureRequestSchema.safeParse(await readJson(request));
    if (!parsed.success) return errorResponse(400, parsed.error.issues[0]?.message ?? 'Invalid request');
    const body = parsed.data;
    const validation = mockValidate(body.github_pat, body.github_repo_url);
    if (validation.overall_status !== 'success') {
      return errorResponse(400, `GitHub access was not saved: ${firstFailure(validation) ?? 'validation failed'}`);
    }
    const state = githubMock();
    state.config = {
      repo_url: body.github_repo_url,
      github_user: body.github_user || GITHUB_DEFAULT_USER,
      github_email: body.github_email || GITHUB_DEFAULT_EMAIL,
      configured_at: new Date().toISOString(),
      configured_by: actor.username,
      token: body.github_pat,
    };
    state.lastCheck = validation;
    recordMockActivity('github.configure', { id: actor.id, username: actor.username }, { type: 'repository', id: validation.repository_info?.full_name ?? body.github_repo_url });
    return HttpResponse.json<GithubConfigureResponse>({
      success: true,
      data: { message: 'GitHub configuration saved successfully', status: mockGithubStatus(), validation },
    });
  }),
];
