import {
  githubConfigureRequestSchema,
  githubConfigureResponseSchema,
  githubStatusResponseSchema,
  githubValidateRequestSchema,
  githubValidationResponseSchema,
} from '../../../contract/github';
import { fromFlag } from '../../db';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import type { GithubService } from './service';

export function registerGithubRoutes(app: AppInstance, github: GithubService): void {
  app.get('/api/github/status', { config: { access: 'session' }, schema: { response: { 200: githubStatusResponseSchema } } }, async () => ({
    success: true as const,
    data: await github.status(),
  }));

  // 200 with overall_status "error" when a check fails: the result is the answer, not a failed call.
  app.post(
    '/api/github/validate',
    { config: { access: 'session' }, schema: { body: githubValidateRequestSchema, response: { 200: githubValidationResponseSchema } } },
    async (request) => ({ success: true as const, data: await github.validate(request.body, { superuser: fromFlag(sessionOf(request).user.is_superuser) }) }),
  );

  app.post(
    '/api/github/configure',
    { config: { access: 'superuser' }, schema: { body: githubConfigureRequestSchema, response: { 200: githubConfigureResponseSchema } } },
    async (request) => ({ success: true as const, data: await github.configure(request.body, sessionOf(request).user) }),
  );
}
