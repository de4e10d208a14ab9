import { z } from 'zod';
import { envelope, instantSchema } from './common';
import { refuseFormatControls } from './display-text';

/** Commit identity used when the operator leaves name or email empty. */
export const GITHUB_DEFAULT_USER = 'capture-bot';
export const GITHUB_DEFAULT_EMAIL = 'capture-bot@users.noreply.github.com';

export interface RepositoryRef {
  host: string;
  owner: string;
  repo: string;
}

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * Owner and name of a repository from its web or clone URL: `https://github.com/owner/repo`, with an
 * optional `.git` or trailing slash, the same on a GitHub Enterprise host, or `git@host:owner/repo.git`.
 */
export function parseRepositoryUrl(input: string): RepositoryRef | undefined {
  const text = input.trim();
  let host: string;
  let pathPart: string;
  const ssh = /^(?:ssh:\/\/)?git@([^:/\s]+)[:/](.+)$/.exec(text);
  if (ssh) {
    host = ssh[1];
    pathPart = ssh[2];
  } else {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return undefined;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    if (url.username || url.password || url.search || url.hash) return undefined;
    host = url.host;
    pathPart = url.pathname;
  }
  const segments = pathPart.replace(/^\/+/, '').replace(/\/+$/, '').split('/');
  if (segments.length !== 2) return undefined;
  const owner = segments[0];
  const repo = segments[1].replace(/\.git$/, '');
  if (!OWNER.test(owner) || !REPO.test(repo) || repo === '.' || repo === '..') return undefined;
  return { host: host.toLowerCase(), owner, repo };
}

const REPO_URL_MESSAGE = 'Repository URL must look like https://github.com/owner/repository';

/** Printable ASCII without spaces: what a GitHub token is made of, and nothing that could bend a header. */
const tokenSchema = z
  .string()
  .trim()
  .min(1, 'GitHub token is required')
  .max(512, 'GitHub token is too long')
  .regex(/^[\x21-\x7e]+$/, 'GitHub token contains characters a token cannot have');

const repoUrlSchema = z
  .string()
  .trim()
  .min(1, 'Repository URL is required')
  .max(512, 'Repository URL is too long')
  .refine((url) => parseRepositoryUrl(url) !== undefined, REPO_URL_MESSAGE);

/** POST /api/github/configure (docs/reference.md section 3, Configure payload). Empty user or email take the bot defaults. */
export const githubConfigureRequestSchema = z.strictObject({
  github_pat: tokenSchema,
  github_repo_url: repoUrlSchema,
  // The author name of every commit the server pushes, read by people on GitHub: no bidi or invisible characters.
  github_user: z
    .string()
    .trim()
    .max(100, 'Git user name is too long')
    .superRefine(refuseFormatControls('Git user name'))
    .optional(),
  github_email: z
    .string()
    .trim()
    .max(254)
    .refine((email) => email === '' || z.email().safeParse(email).success, 'Git email address is not valid')
    .optional(),
});
export type GithubConfigureRequest = z.infer<typeof githubConfigureRequestSchema>;

/**
 * POST /api/github/validate. Without a body it checks the saved configuration; with one, it checks
 * the given token and/or repository (falling back to the saved ones) without saving anything.
 */
export const githubValidateRequestSchema = z
  .strictObject({ github_pat: tokenSchema.optional(), github_repo_url: repoUrlSchema.optional() })
  .nullish();
export type GithubValidateRequest = z.infer<typeof githubValidateRequestSchema>;

/** `skipped`: not run because an earlier check failed. */
export const githubCheckStatusSchema = z.enum(['success', 'error', 'skipped']);
export type GithubCheckStatus = z.infer<typeof githubCheckStatusSchema>;

const checkSchema = z.object({ status: githubCheckStatusSchema, message: z.string() });

/** Why a check failed, for the console to choose wording or a hint; null when it passed or was skipped. */
export const githubFailureReasonSchema = z.enum([
  'bad_token',
  'missing_scope',
  'forbidden',
  'not_found',
  'no_push_permission',
  'rate_limited',
  'unreachable',
  'github_error',
]);
export type GithubFailureReason = z.infer<typeof githubFailureReasonSchema>;

export const githubRepositoryPermissionsSchema = z.object({ push: z.boolean(), pull: z.boolean(), admin: z.boolean() });

/** Validation result (docs/reference.md section 3). */
export const githubValidationResultSchema = z.object({
  overall_status: z.enum(['success', 'error']),
  /** The first reason a check failed, or null. */
  reason: githubFailureReasonSchema.nullable(),
  checks: z.object({
    github_api: checkSchema.extend({ reason: githubFailureReasonSchema.nullable() }),
    repository_access: checkSchema.extend({ reason: githubFailureReasonSchema.nullable() }),
    permissions: checkSchema.extend({ reason: githubFailureReasonSchema.nullable(), push: z.boolean() }),
  }),
  user_info: z.object({ login: z.string(), name: z.string().nullable() }).nullable(),
  repository_info: z
    .object({
      full_name: z.string(),
      private: z.boolean(),
      default_branch: z.string(),
      permissions: githubRepositoryPermissionsSchema,
    })
    .nullable(),
  /** OAuth scopes of a classic token; null for tokens that do not report scopes (fine-grained). */
  token_scopes: z.array(z.string()).nullable(),
  /** Set when GitHub refused because of its rate limit: when requests will be accepted again. */
  rate_limit_reset: instantSchema.nullable(),
  api_url: z.string(),
  checked_at: instantSchema,
});
export type GithubValidationResult = z.infer<typeof githubValidationResultSchema>;
export const githubValidationResponseSchema = envelope(githubValidationResultSchema);

export const githubRepositoryInfoSchema = z.object({
  name: z.string(),
  owner: z.string(),
  full_name: z.string(),
  private: z.boolean(),
  default_branch: z.string(),
});

/** Repository access status (docs/reference.md section 3). The token itself is never part of it. */
export const githubStatusSchema = z.object({
  configuration: z.object({
    status: z.enum(['configured', 'not_configured']),
    pat_configured: z.boolean(),
    repo_url: z.string().nullable(),
    github_user: z.string().nullable(),
    github_email: z.string().nullable(),
    configured_at: instantSchema.nullable(),
    configured_by: z.string().nullable(),
  }),
  github_access: z.object({
    /** `not_checked`: nothing is configured, so nothing was asked of GitHub. */
    status: z.enum(['connected', 'error', 'not_checked']),
    message: z.string().nullable(),
    reason: githubFailureReasonSchema.nullable(),
  }),
  overall_status: z.enum(['healthy', 'unhealthy', 'not_configured']),
  repository_info: githubRepositoryInfoSchema.nullable(),
  last_checked: instantSchema.nullable(),
  api_url: z.string(),
});
export type GithubStatus = z.infer<typeof githubStatusSchema>;
export const githubStatusResponseSchema = envelope(githubStatusSchema);

export const githubConfigureResponseSchema = envelope(
  z.object({ message: z.string(), status: githubStatusSchema, validation: githubValidationResultSchema }),
);
export type GithubConfigureResponse = z.infer<typeof githubConfigureResponseSchema>;
