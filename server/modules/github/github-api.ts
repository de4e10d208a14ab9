import type { Octokit } from '@octokit/rest';
import type { GithubFailureReason } from '../../../contract/github';
import type { Clock } from '../../lib/clock';

export interface GithubUser {
  login: string;
  name: string | null;
  /** `x-oauth-scopes` of a classic token; null when GitHub sends none (fine-grained tokens). */
  scopes: string[] | null;
}

export interface GithubRepository {
  name: string;
  owner: string;
  full_name: string;
  private: boolean;
  default_branch: string;
  permissions: { push: boolean; pull: boolean; admin: boolean };
}

/** What the server asks of GitHub; the Octokit implementation below, fakes in tests. */
export interface GithubApi {
  readonly apiUrl: string;
  authenticatedUser(token: string): Promise<GithubUser>;
  repository(token: string, owner: string, repo: string): Promise<GithubRepository>;
}

/** A GitHub call that failed, with why. Its message never holds the token. */
export class GithubApiError extends Error {
  constructor(
    readonly reason: GithubFailureReason,
    message: string,
    readonly status: number | null = null,
    /** When GitHub's rate limit resets, for `rate_limited`. */
    readonly resetAt: string | null = null,
  ) {
    super(message);
    this.name = 'GithubApiError';
  }
}

interface OctokitFailure {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

const header = (failure: OctokitFailure, name: string): string | undefined => {
  const value = failure.response?.headers?.[name];
  return value === undefined ? undefined : String(value);
};

function githubMessage(failure: OctokitFailure): string {
  const data = failure.response?.data;
  const text =
    data && typeof data === 'object' && 'message' in data ? String((data as { message: unknown }).message) : '';
  return text.slice(0, 200);
}

/** Turns whatever Octokit threw into a GithubApiError that says why, in words for the operator. */
export function classifyGithubError(error: unknown, apiUrl: string, clock: Clock): GithubApiError {
  if (error instanceof GithubApiError) return error;
  const failure = (error ?? {}) as OctokitFailure;
  const status = typeof failure.status === 'number' ? failure.status : null;
  if (!failure.response) {
    // No HTTP answer at all: refused, unresolvable, timed out.
    const why = (failure.message ?? 'no answer').slice(0, 200);
    return new GithubApiError('unreachable', `Could not reach GitHub at ${apiUrl}: ${why}`, null);
  }
  const remaining = header(failure, 'x-ratelimit-remaining');
  const retryAfter = header(failure, 'retry-after');
  if (status === 429 || (status === 403 && (remaining === '0' || retryAfter !== undefined))) {
    const resetSeconds = Number(header(failure, 'x-ratelimit-reset'));
    const resetAt =
      Number.isFinite(resetSeconds) && resetSeconds > 0
        ? new Date(resetSeconds * 1000).toISOString()
        : retryAfter !== undefined && Number.isFinite(Number(retryAfter))
          ? new Date(clock.now().getTime() + Number(retryAfter) * 1000).toISOString()
          : null;
    return new GithubApiError(
      'rate_limited',
      `GitHub's rate limit is exhausted${resetAt ? `; it resets at ${resetAt}` : ''}`,
      status,
      resetAt,
    );
  }
  const said = githubMessage(failure);
  if (status === 401)
    return new GithubApiError(
      'bad_token',
      `GitHub rejected the token (401${said ? ` ${said}` : ''}): it is wrong, expired or revoked`,
      401,
    );
  if (status === 403)
    return new GithubApiError('forbidden', `GitHub refused access (403${said ? `: ${said}` : ''})`, 403);
  if (status === 404) return new GithubApiError('not_found', 'GitHub answered 404 Not Found', 404);
  return new GithubApiError(
    'github_error',
    `GitHub answered ${status ?? 'an error'}${said ? `: ${said}` : ''}`,
    status,
  );
}

const silentLog = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function parseScopes(value: string | number | undefined): string[] | null {
  if (value === undefined) return null;
  return String(value)
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
}

/** GitHub's REST API through Octokit, at GITHUB_API_URL (https://api.github.com, or GHE's /api/v3). */
export class OctokitGithubApi implements GithubApi {
  constructor(
    readonly apiUrl: string,
    private readonly clock: Clock,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Octokit is loaded on the first GitHub call, not at start: most servers never make one. */
  private async client(token: string): Promise<Octokit> {
    const { Octokit } = await import('@octokit/rest');
    return new Octokit({
      auth: token,
      baseUrl: this.apiUrl.replace(/\/+$/, ''),
      userAgent: 'capture-command-center',
      // Octokit's own request log stays off: nothing about these calls reaches the server log from here.
      log: silentLog,
      request: { signal: AbortSignal.timeout(this.timeoutMs) },
    });
  }

  async authenticatedUser(token: string): Promise<GithubUser> {
    try {
      const response = await (await this.client(token)).rest.users.getAuthenticated();
      return {
        login: response.data.login,
        name: response.data.name ?? null,
        scopes: parseScopes(response.headers['x-oauth-scopes']),
      };
    } catch (error) {
      throw classifyGithubError(error, this.apiUrl, this.clock);
    }
  }

  async repository(token: string, owner: string, repo: string): Promise<GithubRepository> {
    try {
      const { data } = await (await this.client(token)).rest.repos.get({ owner, repo });
      return {
        name: data.name,
        owner: data.owner.login,
        full_name: data.full_name,
        private: data.private,
        default_branch: data.default_branch,
        permissions: {
          push: data.permissions?.push ?? false,
          pull: data.permissions?.pull ?? false,
          admin: data.permissions?.admin ?? false,
        },
      };
    } catch (error) {
      throw classifyGithubError(error, this.apiUrl, this.clock);
    }
  }
}
