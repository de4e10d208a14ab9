import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import { SecretBox } from '../../lib/crypto';
import type { SecretKeys } from '../../lib/secret-key';
import type { ServerModule } from '../../lib/server-module';
import type { ActivityService } from '../activity';
import { OctokitGithubApi } from './github-api';
import { registerGithubRoutes } from './routes';
import { GithubService } from './service';
import { SettingsRepository } from './settings-repository';

/** What other modules and the app use of the GitHub settings; the rest stays inside the module. */
export { GithubService } from './service';

/** The GitHub settings (token kept encrypted) and their routes. */
export function createGithubModule(deps: {
  config: Pick<Config, 'githubApiUrl'>;
  db: Db;
  clock: Clock;
  keys: SecretKeys;
  activity: ActivityService;
  log: FastifyBaseLogger;
}): ServerModule<GithubService> {
  const service = new GithubService({
    settings: new SettingsRepository(deps.db.kysely),
    api: new OctokitGithubApi(deps.config.githubApiUrl, deps.clock),
    box: new SecretBox(deps.keys.derive('settings-encryption')),
    clock: deps.clock,
    activity: deps.activity,
    log: deps.log,
  });
  return { service, register: (app) => registerGithubRoutes(app, service) };
}
