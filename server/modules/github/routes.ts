import { githubRoutes } from '../../../contract/routes/github';
import { fromFlag } from '../../db';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import type { GithubService } from './service';

export function registerGithubRoutes(app: AppInstance, github: GithubService): void {
  handle(app, githubRoutes.status, async () => ({ success: true as const, data: await github.status() }));

  handle(app, githubRoutes.validate, async (request) => ({
    success: true as const,
    data: await github.validate(request.body, { superuser: fromFlag(sessionOf(request).user.is_superuser) }),
  }));

  handle(app, githubRoutes.configure, async (request) => ({
    success: true as const,
    data: await github.configure(request.body, sessionOf(request).user),
  }));
}
