import type { GithubFailureReason, GithubValidationResult, RepositoryRef } from '../../../contract/github';
import type { Clock } from '../../lib/clock';
import { GithubApiError, type GithubApi, type GithubRepository, type GithubUser } from './github-api';

type Checks = GithubValidationResult['checks'];

const skipped = (message: string) => ({ status: 'skipped' as const, message, reason: null });
const failed = (reason: GithubFailureReason, message: string) => ({ status: 'error' as const, message, reason });

function asApiError(error: unknown): GithubApiError {
  return error instanceof GithubApiError
    ? error
    : new GithubApiError('github_error', 'GitHub gave an answer the server could not read');
}

function scopesAllowPush(scopes: string[] | null, isPrivate: boolean): boolean {
  if (scopes === null) return true; // fine-grained token: the repository's permissions are the token's
  return scopes.includes('repo') || (!isPrivate && scopes.includes('public_repo'));
}

/**
 * The three checks of docs/reference.md's validation result, in order, each saying why it failed:
 * github_api (the token is accepted), repository_access (the repository is visible to it),
 * permissions (it may push there). A check after a failed one is skipped.
 */
export async function validateGithubAccess(
  api: GithubApi,
  token: string,
  ref: RepositoryRef,
  clock: Clock,
): Promise<GithubValidationResult> {
  const fullName = `${ref.owner}/${ref.repo}`;
  const checks: Checks = {
    github_api: skipped('Not checked'),
    repository_access: skipped('Skipped: the token was not accepted'),
    permissions: { ...skipped('Skipped: the repository could not be read'), push: false },
  };
  const result: GithubValidationResult = {
    overall_status: 'error',
    reason: null,
    checks,
    user_info: null,
    repository_info: null,
    token_scopes: null,
    rate_limit_reset: null,
    api_url: api.apiUrl,
    checked_at: clock.now().toISOString(),
  };
  const fail = (error: GithubApiError) => {
    result.reason ??= error.reason;
    if (error.resetAt) result.rate_limit_reset = error.resetAt;
  };

  let user: GithubUser;
  try {
    user = await api.authenticatedUser(token);
  } catch (error) {
    const apiError = asApiError(error);
    checks.github_api = failed(apiError.reason, apiError.message);
    if (apiError.reason === 'unreachable' || apiError.reason === 'rate_limited') {
      checks.repository_access = skipped('Skipped: GitHub did not answer the first check');
    }
    fail(apiError);
    return result;
  }
  result.user_info = { login: user.login, name: user.name };
  result.token_scopes = user.scopes;
  checks.github_api = { status: 'success', message: `Authenticated as ${user.login}`, reason: null };

  let repo: GithubRepository;
  try {
    repo = await api.repository(token, ref.owner, ref.repo);
  } catch (error) {
    const apiError = asApiError(error);
    const lacksRepoScope = user.scopes !== null && !user.scopes.includes('repo');
    if (apiError.reason === 'not_found' && lacksRepoScope) {
      checks.repository_access = failed(
        'missing_scope',
        `Repository ${fullName} was not found: the token lacks the repo scope that private repositories need`,
      );
      result.reason = 'missing_scope';
    } else if (apiError.reason === 'not_found') {
      checks.repository_access = failed(
        'not_found',
        `Repository ${fullName} was not found, or this token cannot see it`,
      );
      fail(apiError);
    } else {
      checks.repository_access = failed(apiError.reason, apiError.message);
      fail(apiError);
    }
    return result;
  }
  result.repository_info = {
    full_name: repo.full_name,
    private: repo.private,
    default_branch: repo.default_branch,
    permissions: repo.permissions,
  };
  checks.repository_access = {
    status: 'success',
    message: `${repo.full_name} is readable (${repo.private ? 'private' : 'public'}, default branch ${repo.default_branch})`,
    reason: null,
  };

  const scopeOk = scopesAllowPush(user.scopes, repo.private);
  const push = repo.permissions.push && scopeOk;
  if (!repo.permissions.push) {
    checks.permissions = {
      ...failed('no_push_permission', `${user.login} cannot push to ${repo.full_name}: read access only`),
      push,
    };
    result.reason = 'no_push_permission';
  } else if (!scopeOk) {
    const scopes = user.scopes?.length ? user.scopes.join(', ') : 'none';
    checks.permissions = {
      ...failed('missing_scope', `The token lacks the repo scope needed to push (its scopes: ${scopes})`),
      push,
    };
    result.reason = 'missing_scope';
  } else {
    checks.permissions = { status: 'success', message: `Can push to ${repo.full_name}`, reason: null, push };
    result.overall_status = 'success';
  }
  return result;
}
