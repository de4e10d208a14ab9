import type { GithubFailureReason, GithubStatus, GithubValidationResult, RepositoryRef } from './github';

/** The saved configuration as the status reports it (never the token). */
export interface GithubSavedConfig {
  repo_url: string;
  github_user: string;
  github_email: string;
  configured_at: string;
  configured_by: string | null;
}

/** The last check of the saved configuration, as it is kept between status calls. */
export interface GithubStoredCheck {
  checked_at: string;
  /** The configuration this check was made for. */
  configured_at: string;
  ok: boolean;
  message: string;
  reason: GithubFailureReason | null;
  repository_info: GithubStatus['repository_info'];
}

/** The message of the first failed check, in the order they run. */
export function firstFailure(result: GithubValidationResult): string | undefined {
  return [result.checks.github_api, result.checks.repository_access, result.checks.permissions].find(
    (c) => c.status === 'error',
  )?.message;
}

/** What the status keeps of one validation of the saved configuration. */
export function summarizeCheck(
  result: GithubValidationResult,
  configuredAt: string,
  ref: RepositoryRef,
): GithubStoredCheck {
  const repo = result.repository_info;
  return {
    checked_at: result.checked_at,
    configured_at: configuredAt,
    ok: result.overall_status === 'success',
    message: firstFailure(result) ?? result.checks.permissions.message,
    reason: result.reason,
    repository_info: repo
      ? {
          name: repo.full_name.split('/')[1] ?? ref.repo,
          owner: repo.full_name.split('/')[0] ?? ref.owner,
          full_name: repo.full_name,
          private: repo.private,
          default_branch: repo.default_branch,
        }
      : null,
  };
}

/** GET /api/github/status's data: the saved configuration (or none) and its last check (or none yet). */
export function buildGithubStatus(
  config: GithubSavedConfig | undefined,
  check: GithubStoredCheck | undefined,
  apiUrl: string,
): GithubStatus {
  if (!config) {
    return {
      configuration: {
        status: 'not_configured',
        pat_configured: false,
        repo_url: null,
        github_user: null,
        github_email: null,
        configured_at: null,
        configured_by: null,
      },
      github_access: { status: 'not_checked', message: null, reason: null },
      overall_status: 'not_configured',
      repository_info: null,
      last_checked: null,
      api_url: apiUrl,
    };
  }
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
    github_access: check
      ? { status: check.ok ? 'connected' : 'error', message: check.message, reason: check.reason }
      : { status: 'not_checked', message: null, reason: null },
    overall_status: check?.ok ? 'healthy' : 'unhealthy',
    repository_info: check?.repository_info ?? null,
    last_checked: check?.checked_at ?? null,
    api_url: apiUrl,
  };
}
