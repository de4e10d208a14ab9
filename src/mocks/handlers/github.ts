import { HttpResponse } from 'msw';
import {
  GITHUB_DEFAULT_EMAIL,
  GITHUB_DEFAULT_USER,
  parseRepositoryUrl,
  type GithubFailureReason,
  type GithubStatus,
  type GithubValidationResult,
} from '../../../contract/github';
import { buildGithubStatus, firstFailure, summarizeCheck } from '../../../contract/github-status';
import { githubRoutes } from '../../../contract/routes/github';
import { mock } from '../endpoint';
import { errorResponse } from '../http';
import { store, type MockStore } from '../store';
import { recordMockActivity } from './activity';

/**
 * Repository access in the mocks. GitHub itself is imitated by the token's name:
 * MOCK_GITHUB_TOKENS.valid passes every check, .badCredentials is refused (401), .readOnly cannot push;
 * a repository whose name is "missing" is not found. Any other token passes.
 */
export const MOCK_GITHUB_TOKENS = {
  valid: 'ghp_mockValidToken123',
  badCredentials: 'ghp_bad',
  readOnly: 'ghp_readonly',
} as const;
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
  const base = {
    user_info: null,
    repository_info: null,
    token_scopes: null,
    rate_limit_reset: null,
    api_url: MOCK_GITHUB_API,
    checked_at: now,
  };
  const skipped = (message: string) => ({ status: 'skipped' as const, message, reason: null });
  const fail = (reason: GithubFailureReason, message: string) => ({ status: 'error' as const, message, reason });
  if (token === MOCK_GITHUB_TOKENS.badCredentials || !ref) {
    return {
      ...base,
      overall_status: 'error',
      reason: 'bad_token',
      checks: {
        github_api: fail(
          'bad_token',
          'GitHub refused the token (401 Bad credentials): it is wrong, expired or revoked',
        ),
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
        repository_access: fail(
          'not_found',
          `Repository ${ref.owner}/${ref.repo} was not found, or the token cannot see it`,
        ),
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
    repository_info: {
      full_name,
      private: true,
      default_branch: 'main',
      permissions: { push, pull: true, admin: false },
    },
    overall_status: push ? 'success' : 'error',
    reason: push ? null : 'no_push_permission',
    checks: {
      github_api,
      repository_access: { status: 'success', message: `Repository ${full_name} is accessible`, reason: null },
      permissions: push
        ? { status: 'success', message: 'The token can push to the repository', reason: null, push: true }
        : {
            status: 'error',
            message: 'The token can read the repository but not push to it',
            reason: 'no_push_permission',
            push: false,
          },
    },
  };
}

export function mockGithubStatus(): GithubStatus {
  const { config, lastCheck } = githubMock();
  const ref = config && parseRepositoryUrl(config.repo_url);
  const check = config && lastCheck && ref ? summarizeCheck(lastCheck, config.configured_at, ref) : undefined;
  return buildGithubStatus(config ?? undefined, check, MOCK_GITHUB_API);
}

/** Saves a configuration without a request (tests start from a configured state). */
export function configureMockGithub(
  repoUrl = 'https://github.com/capture-org/recordings',
  token: string = MOCK_GITHUB_TOKENS.valid,
): void {
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
  mock(githubRoutes.status, () => HttpResponse.json({ success: true, data: mockGithubStatus() })),

  mock(githubRoutes.validate, ({ body }) => {
    const state = githubMock();
    const token = body?.github_pat ?? state.config?.token;
    const repoUrl = body?.github_repo_url ?? state.config?.repo_url;
    if (!token || !repoUrl)
      return errorResponse(400, 'GitHub access is not configured: give a token and a repository URL');
    const result = mockValidate(token, repoUrl);
    if (state.config && !body?.github_pat && !body?.github_repo_url) state.lastCheck = result;
    return HttpResponse.json({ success: true, data: result });
  }),

  mock(githubRoutes.configure, ({ body, user }) => {
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
      configured_by: user.username,
      token: body.github_pat,
    };
    state.lastCheck = validation;
    recordMockActivity(
      'github.configure',
      { id: user.id, username: user.username },
      { type: 'repository', id: validation.repository_info?.full_name ?? body.github_repo_url },
    );
    return HttpResponse.json({
      success: true,
      data: { message: 'GitHub configuration saved successfully', status: mockGithubStatus(), validation },
    });
  }),
];
