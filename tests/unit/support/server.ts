import { setupServer } from 'msw/node';
import { onTestFinished } from 'vitest';
import { handlers } from '../../../src/mocks/handlers';

/** The mocks of src/mocks, answering every call of the component tests; an unmocked call fails the test. */
export const server = setupServer(...handlers);

/**
 * The JSON bodies of the calls `method path` the mocks receive from now on until the test ends, in the
 * order they are read (`path`: the exact pathname, or a pattern of it). A body that is not JSON fails the
 * run, as an unhandled rejection.
 */
export function captureBodies(method: string, path: string | RegExp): unknown[] {
  const bodies: unknown[] = [];
  const listener = ({ request }: { request: Request }) => {
    const pathname = new URL(request.url).pathname;
    if (request.method !== method || !(typeof path === 'string' ? pathname === path : path.test(pathname))) return;
    // The emitter does not wait for its listeners: the body is read beside the request, not before it.
    void request
      .clone()
      .json()
      .then((body: unknown) => bodies.push(body));
  };
  server.events.on('request:start', listener);
  onTestFinished(() => server.events.removeListener('request:start', listener));
  return bodies;
}
