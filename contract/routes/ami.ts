import {
  amiCreateRequestSchema,
  amiCreateResponseSchema,
  amiDeleteResponseSchema,
  amiIdParamsSchema,
  amiListResponseSchema,
} from '../ami';
import { endpoint } from '../endpoint';

/** Recorder images: any operator. */
export const amiRoutes = {
  list: endpoint({ method: 'GET', path: '/api/ami/list', access: 'session', response: amiListResponseSchema }),
  create: endpoint({
    method: 'POST',
    path: '/api/ami/create',
    access: 'session',
    body: amiCreateRequestSchema,
    response: amiCreateResponseSchema,
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/api/ami/:ami_id',
    access: 'session',
    params: amiIdParamsSchema,
    response: amiDeleteResponseSchema,
  }),
};
