import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyRequestLogger } from '../../../server/lib/request-logger';
import { collectLogLines } from '../helpers/log-lines';

type Line = Record<string, unknown> & { msg?: string; reqId?: string };

/** A Fastify whose request loggers come from the lazy factory, logging as the server does (redaction included). */
function server(level: string): { app: FastifyInstance; lines: Line[] } {
  const { stream, lines } = collectLogLines<Line>();
  const app = Fastify({
    logger: { level, stream, redact: { paths: ['req.headers.authorization', '*.password'], censor: '[redacted]' } },
    childLoggerFactory: lazyRequestLogger,
  });
  app.get('/quiet', async (request) => {
    request.log.info('below the level');
    request.log.debug({ detail: 1 }, 'further below');
    return { id: request.id };
  });
  app.get('/loud', async (request) => {
    request.log.warn({ user: { password: 'hunter2' } }, 'something to see');
    request.log.child({ step: 'inner' }).error('from a child');
    return { id: request.id };
  });
  app.get('/chatty', { logLevel: 'debug' }, async (request) => {
    request.log.debug('a route that asks for more');
    return { id: request.id };
  });
  return { app, lines };
}

let open: FastifyInstance | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function call(app: FastifyInstance, url: string): Promise<string> {
  const response = await app.inject({ url, headers: { authorization: 'Bearer secret-token' } });
  return (response.json() as { id: string }).id;
}

describe('lazy request logger', () => {
  it('writes nothing below the level', async () => {
    const { app, lines } = server('warn');
    open = app;
    await call(app, '/quiet');
    expect(lines).toEqual([]);
  });

  it('writes lines at the level with the request id, redacted, from the logger and its children', async () => {
    const { app, lines } = server('warn');
    open = app;
    const id = await call(app, '/loud');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 40, reqId: id, msg: 'something to see', user: { password: '[redacted]' } });
    expect(lines[1]).toMatchObject({ level: 50, reqId: id, step: 'inner', msg: 'from a child' });
  });

  it("keeps Fastify's request lines at info, with the authorization header redacted", async () => {
    const { app, lines } = server('info');
    open = app;
    const id = await call(app, '/quiet');
    const messages = lines.map((line) => line.msg);
    expect(messages).toEqual(['incoming request', 'below the level', 'request completed']);
    expect(lines.every((line) => line.reqId === id)).toBe(true);
    expect(JSON.stringify(lines)).not.toContain('secret-token');
  });

  it("honours a route's own log level", async () => {
    const { app, lines } = server('warn');
    open = app;
    const id = await call(app, '/chatty');
    expect(lines.filter((line) => line.msg === 'a route that asks for more')).toMatchObject([{ level: 20, reqId: id }]);
  });
});
