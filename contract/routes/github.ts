import { endpoint } from '../endpoint';
import {
  githubConfigureRequestSchema,
  githubConfigureResponseSchema,
  githubStatusResponseSchema,
  githubValidateRequestSchema,
  githubValidationResponseSchema,
} from '../github';

/** Repository access: any operator reads and checks it, only a superuser saves it. */
export const githubRoutes = {
  status: endpoint({
    method: 'GET',
    path: '/api/github/status',
    access: 'session',
    response: githubStatusResponseSchema,
  }),
  /** 200 with overall_status "error" when a check fails: the result is the answer, not a failed call. */
  validate: endpoint({
    method: 'POST',
    path: '/api/github/validate',
    access: 'session',
    body: githubValidateRequestSchema,
    response: githubValidationResponseSchema,
  }),
  configure: endpoint({
    method: 'POST',
    path: '/api/github/configure',
    access: 'superuser',
    body: githubConfigureRequestSchema,
    response: githubConfigureResponseSchema,
  }),
};
