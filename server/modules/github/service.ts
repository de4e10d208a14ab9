import type { FastifyBaseLogger } from 'fastify';
import {
  GITHUB_DEFAULT_EMAIL,
  GITHUB_DEFAULT_USER,
  parseRepositoryUrl,
  type GithubConfigureRequest,
  type GithubFailureReason,
  type GithubStatus,
  type GithubValidateRequest,
  type GithubValidationResult,
  type RepositoryRef,
} from '../../../contract/github';
import {
  buildGithubStatus,
  firstFailure,
  summarizeCheck,
  type GithubSavedConfig,
  type GithubStoredCheck,
} from '../../../contract/github-status';
import type { Clock } from '../../lib/clock';
import { DecryptionError, type SecretBox } from '../../lib/crypto';
import { HttpError, badRequest, conflict, forbidden } from '../../lib/http-error';
import type { ActivityActor, ActivityService } from '../activity';
import type { GithubApi } from './github-api';
import type { SettingsRepository } from './settings-repository';
import { validateGithubAccess } from './validator';

const KEY_TOKEN = 'github.pat';
const KEY_CONFIG = 'github.config';
const KEY_LAST_CHECK = 'github.last_check';
/** The token's sealed value is bound to its setting's name. */
const TOKEN_CONTEXT = `settings:${KEY_TOKEN}`;
/** GET /api/github/status asks GitHub again when its last answer is older than this. */
const STATUS_RECHECK_MS = 5 * 60_000;
const UNDECRYPTABLE =
  "The saved GitHub token cannot be decrypted with this server's key (was SECRET_KEY or the key file changed?). Configure the token again.";

type StoredConfig = GithubSavedConfig;
type StoredCheck = GithubStoredCheck;

export interface GithubDeps {
  settings: SettingsRepository;
  api: GithubApi;
  box: SecretBox;
  clock: Clock;
  activity: ActivityService;
  log: FastifyBaseLogger;
}

/** Which HTTP status tells the console why a configuration was not saved. */
function statusFor(reason: GithubFailureReason | null): number {
  if (reason === 'rate_limited' || reason === 'unreachable') return 503;
  if (reason === 'github_error') return 502;
  return 400;
}

/** GitHub names are case-insensitive. */
const sameRepository = (a: RepositoryRef, b: RepositoryRef) =>
  [a.host, a.owner, a.repo].join('/').toLowerCase() === [b.host, b.owner, b.repo].join('/').toLowerCase();

/**
 * Repository access: the token is sealed with AES-256-GCM before it is stored and is opened only to
 * call GitHub; no response and no log line ever carries it. Configure saves only a token that passes
 * every check, so a saved configuration is one that worked when it was saved.
 */
export class GithubService {
  private recheck: Promise<void> | undefined;

  constructor(private readonly deps: GithubDeps) {}

  async status(): Promise<GithubStatus> {
    const config = await this.loadConfig();
    if (!config) return buildGithubStatus(undefined, undefined, this.deps.api.apiUrl);
    let check = await this.loadJson<StoredCheck>(KEY_LAST_CHECK);
    const stale =
      !check ||
      check.configured_at !== config.configured_at ||
      this.deps.clock.now().getTime() - Date.parse(check.checked_at) >= STATUS_RECHECK_MS;
    if (stale) {
      this.recheck ??= this.checkSaved(config).finally(() => {
        this.recheck = undefined;
      });
      await this.recheck;
      check = await this.loadJson<StoredCheck>(KEY_LAST_CHECK);
    }
    return buildGithubStatus(config, check, this.deps.api.apiUrl);
  }

  /**
   * Checks the given token and/or repository (without saving them), else the saved ones. Only a
   * superuser may name another repository: else the saved token would probe any repository for anyone.
   */
  async validate(input: GithubValidateRequest, caller: { superuser: boolean }): Promise<GithubValidationResult> {
    const config = await this.loadConfig();
    const repoUrl = input?.github_repo_url ?? config?.repo_url;
    const token = input?.github_pat ?? (config ? await this.openToken() : undefined);
    if (!repoUrl || !token) throw badRequest('GitHub access is not configured: give a token and a repository URL');
    const ref = this.ref(repoUrl);
    if (!caller.superuser && (!config || !sameRepository(ref, this.ref(config.repo_url)))) {
      throw forbidden('Only a superuser may validate a repository other than the saved one');
    }
    const result = await validateGithubAccess(this.deps.api, token, ref, this.deps.clock);
    if (config && !input?.github_pat && !input?.github_repo_url)
      await this.saveCheck(summarizeCheck(result, config.configured_at, ref));
    return result;
  }

  async configure(
    input: GithubConfigureRequest,
    actor: ActivityActor,
  ): Promise<{ message: string; status: GithubStatus; validation: GithubValidationResult }> {
    const ref = this.ref(input.github_repo_url);
    const validation = await validateGithubAccess(this.deps.api, input.github_pat, ref, this.deps.clock);
    if (validation.overall_status !== 'success') {
      throw new HttpError(
        statusFor(validation.reason),
        `GitHub access was not saved: ${firstFailure(validation) ?? 'validation failed'}`,
      );
    }
    const now = this.deps.clock.now().toISOString();
    const config: StoredConfig = {
      repo_url: input.github_repo_url,
      github_user: input.github_user || GITHUB_DEFAULT_USER,
      github_email: input.github_email || GITHUB_DEFAULT_EMAIL,
      configured_at: now,
      configured_by: actor.username,
    };
    const check = summarizeCheck(validation, now, ref);
    await this.deps.settings.putAll(
      {
        [KEY_TOKEN]: this.deps.box.seal(input.github_pat, TOKEN_CONTEXT),
        [KEY_CONFIG]: JSON.stringify(config),
        [KEY_LAST_CHECK]: JSON.stringify(check),
      },
      now,
      actor.username,
    );
    await this.deps.activity.record({
      actor,
      action: 'github.configure',
      target: { type: 'repository', id: validation.repository_info?.full_name ?? `${ref.owner}/${ref.repo}` },
      detail: {
        repo_url: config.repo_url,
        github_user: config.github_user,
        github_email: config.github_email,
        api_url: this.deps.api.apiUrl,
      },
    });
    return {
      message: 'GitHub configuration saved successfully',
      status: buildGithubStatus(config, check, this.deps.api.apiUrl),
      validation,
    };
  }

  /** The saved token, for modules that push to the repository. Throws a 409 when it cannot be opened. */
  async openToken(): Promise<string> {
    const row = await this.deps.settings.get(KEY_TOKEN);
    if (!row) throw badRequest('GitHub access is not configured');
    try {
      return this.deps.box.open(row.value, TOKEN_CONTEXT);
    } catch (error) {
      if (error instanceof DecryptionError) {
        this.deps.log.error({ setting: KEY_TOKEN }, 'saved GitHub token cannot be decrypted with the current key');
        throw conflict(UNDECRYPTABLE);
      }
      throw error;
    }
  }

  private async checkSaved(config: StoredConfig): Promise<void> {
    const ref = this.ref(config.repo_url);
    let check: StoredCheck;
    try {
      const token = await this.openToken();
      check = summarizeCheck(
        await validateGithubAccess(this.deps.api, token, ref, this.deps.clock),
        config.configured_at,
        ref,
      );
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      check = {
        checked_at: this.deps.clock.now().toISOString(),
        configured_at: config.configured_at,
        ok: false,
        message: error.message,
        reason: null,
        repository_info: null,
      };
    }
    await this.saveCheck(check);
  }

  private ref(url: string): RepositoryRef {
    const ref = parseRepositoryUrl(url);
    if (!ref) throw badRequest('Repository URL must look like https://github.com/owner/repository');
    return ref;
  }

  private async loadConfig(): Promise<StoredConfig | undefined> {
    const [config, token] = await Promise.all([
      this.loadJson<StoredConfig>(KEY_CONFIG),
      this.deps.settings.get(KEY_TOKEN),
    ]);
    return config && token ? config : undefined;
  }

  private async saveCheck(check: StoredCheck): Promise<void> {
    await this.deps.settings.putAll({ [KEY_LAST_CHECK]: JSON.stringify(check) }, check.checked_at, null);
  }

  private async loadJson<T>(key: string): Promise<T | undefined> {
    const row = await this.deps.settings.get(key);
    if (!row) return undefined;
    try {
      return JSON.parse(row.value) as T;
    } catch {
      return undefined;
    }
  }
}
