import {
  demoStreamResponseSchema,
  instanceDetailsResponseSchema,
  instanceIdParamsSchema,
  instanceLogsQuerySchema,
  instanceLogsResponseSchema,
  instancesListResponseSchema,
  launchRequestSchema,
  launchResponseSchema,
  terminateAllQuerySchema,
  terminateRequestSchema,
  terminateResponseSchema,
} from '../instances';
import { messageBodySchema } from '../common';
import { endpoint } from '../endpoint';
import { instanceCostResponseSchema } from '../instance-cost';
import { instancesPageQuerySchema, instancesPageResponseSchema } from '../instance-list';
import { streamTestIdParamsSchema, streamTestRequestSchema, streamTestResponseSchema } from '../stream-test';

const list = { method: 'GET', access: 'session', response: instancesListResponseSchema } as const;

/** The recorder fleet: list, details, logs, launch and stop. */
export const instanceRoutes = {
  /** docs/reference.md calls the list with its trailing slash; both spellings answer. */
  list: endpoint({ ...list, path: '/api/instances/' }),
  listWithoutSlash: endpoint({ ...list, path: '/api/instances' }),
  /** One page of the fleet searched, filtered and sorted (contract/instance-list.ts), with the count of every match. */
  page: endpoint({
    method: 'GET',
    path: '/api/instances/page',
    access: 'session',
    query: instancesPageQuerySchema,
    response: instancesPageResponseSchema,
  }),
  /** What the EC2 fleet cost: the coming and the last Friday, and this month (contract/instance-cost.ts). */
  cost: endpoint({
    method: 'GET',
    path: '/api/instances/cost',
    access: 'session',
    response: instanceCostResponseSchema,
  }),
  demoStream: endpoint({
    method: 'GET',
    path: '/api/instances/demo-stream',
    access: 'session',
    response: demoStreamResponseSchema,
  }),
  details: endpoint({
    method: 'GET',
    path: '/api/instances/:id',
    access: 'session',
    params: instanceIdParamsSchema,
    response: instanceDetailsResponseSchema,
  }),
  logs: endpoint({
    method: 'GET',
    path: '/api/instances/:id/logs',
    access: 'session',
    params: instanceIdParamsSchema,
    query: instanceLogsQuerySchema,
    response: instanceLogsResponseSchema,
  }),
  launch: endpoint({
    method: 'POST',
    path: '/api/instances/launch',
    access: 'session',
    body: launchRequestSchema,
    response: launchResponseSchema,
  }),
  terminate: endpoint({
    method: 'POST',
    path: '/api/instances/terminate',
    access: 'session',
    body: terminateRequestSchema,
    response: terminateResponseSchema,
  }),
  /** The emergency stop: `force=true` confirms it. */
  terminateAll: endpoint({
    method: 'POST',
    path: '/api/instances/terminate-all',
    access: 'session',
    query: terminateAllQuerySchema,
    response: terminateResponseSchema,
  }),
  /** Closes the launch breaker (launches held after a run of machines that ended without recording). */
  closeLaunchBreaker: endpoint({
    method: 'POST',
    path: '/api/instances/launch-breaker/close',
    access: 'session',
    response: messageBodySchema,
  }),
  /** Records a stream for half a minute now (contract/stream-test.ts) and answers what it carries; the answer takes that long. */
  streamTest: endpoint({
    method: 'POST',
    path: '/api/instances/stream-test',
    access: 'session',
    body: streamTestRequestSchema,
    response: streamTestResponseSchema,
  }),
  /** The clip of a stream test (MP4), fetched by the console with its bearer token as a blob: no JSON response. */
  streamTestClip: endpoint({
    method: 'GET',
    path: '/api/instances/stream-test/:id/clip',
    access: 'session',
    params: streamTestIdParamsSchema,
  }),
};
