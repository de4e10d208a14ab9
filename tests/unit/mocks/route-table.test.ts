import { describe, expect, it } from 'vitest';
import { endpointLabel } from '../../../contract/endpoint';
import { allEndpoints } from '../../../contract/routes';
import { handlers } from '../../../src/mocks/handlers';

/** Mocks of modules still written by hand. The list must match exactly, so it only shrinks, on purpose. */
const NOT_YET_IN_TABLE = [
  'DELETE /api/recordings/:id',
  'GET /api/instances',
  'GET /api/instances/',
  'GET /api/instances/:id',
  'GET /api/instances/:id/logs',
  'GET /api/instances/demo-stream',
  'GET /api/recordings',
  'GET /api/recordings/:id',
  'GET /api/recordings/:id/file',
  'GET /api/recordings/:id/media',
  'GET /api/recordings/storage',
  'POST /api/instances/launch',
  'POST /api/instances/terminate',
  'POST /api/instances/terminate-all',
  'POST /api/recordings/:id/media-link',
];

/** `GET /api/auth/users` for every request handler (the live socket's mock is no HTTP call). */
function mockedLabels(): string[] {
  return handlers.flatMap((handler) => {
    const { method, path } = ((handler as { info?: unknown }).info ?? {}) as { method?: unknown; path?: unknown };
    return typeof method === 'string' && typeof path === 'string' ? [endpointLabel({ method: method as 'GET', path })] : [];
  });
}

describe('route table (contract/routes) and the mocks of src/mocks', () => {
  it('mocks every declared endpoint', () => {
    const mocked = new Set(mockedLabels());
    expect(allEndpoints.map(endpointLabel).filter((label) => !mocked.has(label))).toEqual([]);
  });

  it('mocks nothing the table does not declare, beyond the reviewed list', () => {
    const declared = new Set(allEndpoints.map(endpointLabel));
    expect(mockedLabels().filter((label) => !declared.has(label)).sort()).toEqual([...NOT_YET_IN_TABLE].sort());
  });

  it('mocks each endpoint once', () => {
    const labels = mockedLabels();
    expect(labels.filter((label, index) => labels.indexOf(label) !== index)).toEqual([]);
  });
});
