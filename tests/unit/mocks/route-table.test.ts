import { describe, expect, it } from 'vitest';
import { endpointLabel } from '../../../contract/endpoint';
import { allEndpoints } from '../../../contract/routes';
import { handlers } from '../../../src/mocks/handlers';

/** No API route: the stand-in for the bucket a recording's pre-signed media link redirects to. */
const NOT_API_CALLS = ['GET /mock-bucket/:id/recording.mp4'];

/** `GET /api/auth/users` for every request handler (the live socket's mock is no HTTP call). */
function mockedLabels(): string[] {
  return handlers.flatMap((handler) => {
    const { method, path } = ((handler as { info?: unknown }).info ?? {}) as { method?: unknown; path?: unknown };
    return typeof method === 'string' && typeof path === 'string'
      ? [endpointLabel({ method: method as 'GET', path })]
      : [];
  });
}

describe('route table (contract/routes) and the mocks of src/mocks', () => {
  it('mocks every declared endpoint', () => {
    const mocked = new Set(mockedLabels());
    expect(allEndpoints.map(endpointLabel).filter((label) => !mocked.has(label))).toEqual([]);
  });

  it('mocks nothing the table does not declare, beyond the bucket stand-in', () => {
    const declared = new Set(allEndpoints.map(endpointLabel));
    expect(
      mockedLabels()
        .filter((label) => !declared.has(label))
        .sort(),
    ).toEqual([...NOT_API_CALLS].sort());
  });

  it('mocks each endpoint once', () => {
    const labels = mockedLabels();
    expect(labels.filter((label, index) => labels.indexOf(label) !== index)).toEqual([]);
  });
});
