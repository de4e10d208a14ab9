import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { AccessLogController } from '../../../server/lib/access-log';
import { readableLine } from '../../../server/lib/readable-log';
import { lazyRequestLogger } from '../../../server/lib/request-logger';
import { collectLogLines } from '../helpers/log-lines';

type Line = Record<string, unknown> & { msg?: string; level?: number };

/** A Fastify logging as the server does: its own request lines off, one access line per request. */
function server(level: string): { app: FastifyInstance; lines: Line[] } {
  const { stream, lines } = collectLogLines<Line>();
  const app = Fastify({
    logger: { level, stream },
    logController: new AccessLogController(),
    childLoggerFactory: lazyRequestLogger,
  });
  app.get('/api/things', async () => ({ ok: true }));
  app.get('/api/things/:id/media', async () => ({ ok: true }));
  app.get('/assets/app.js', async () => 'code');
  app.get('/demo/stream3.ts', async () => 'segment');
  return { app, lines };
}

let open: FastifyInstance | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe('access log', () => {
  it('writes one short line per API request, without the query string (a media link carries its token there)', async () => {
    const { app, lines } = server('info');
    open = app;
    await app.inject({ url: '/api/things' });
    await app.inject({ url: '/api/things/7/media?token=1.secret-signature' });
    expect(lines.map((line) => line.msg)).toEqual([
      expect.stringMatching(/^GET \/api\/things 200 \d+ ms$/),
      expect.stringMatching(/^GET \/api\/things\/7\/media 200 \d+ ms$/),
    ]);
    expect(lines[0]).toMatchObject({ level: 30, method: 'GET', path: '/api/things', statusCode: 200 });
    expect(JSON.stringify(lines)).not.toContain('secret-signature');
  });

  it('logs console assets and demo stream files only at debug', async () => {
    const quiet = server('info');
    open = quiet.app;
    await quiet.app.inject({ url: '/assets/app.js' });
    await quiet.app.inject({ url: '/demo/stream3.ts' });
    await quiet.app.inject({ url: '/nowhere' });
    expect(quiet.lines).toEqual([]);
    await quiet.app.close();

    const chatty = server('debug');
    open = chatty.app;
    await chatty.app.inject({ url: '/assets/app.js' });
    expect(chatty.lines).toMatchObject([
      { level: 20, msg: expect.stringMatching(/^GET \/assets\/app\.js 200 \d+ ms$/) },
    ]);
  });
});

describe('readable log lines', () => {
  const time = Date.parse('2026-11-27T09:14:03.250Z');

  it('shows time, level and message of an access line, and nothing it already says', () => {
    const json = JSON.stringify({
      level: 30,
      time,
      pid: 1,
      hostname: 'h',
      reqId: 'req-1',
      method: 'GET',
      path: '/api/instances',
      statusCode: 200,
      ms: 4,
      msg: 'GET /api/instances 200 4 ms',
    });
    expect(readableLine(json)).toBe('09:14:03 INFO  GET /api/instances 200 4 ms\n');
  });

  it('adds other fields as key=value, an error by its message', () => {
    const json = JSON.stringify({
      level: 50,
      time,
      msg: 'capture reconcile failed',
      err: { type: 'Error', message: 'EC2 refused', stack: 'Error: EC2 refused\n    at x' },
      attempt: 2,
    });
    expect(readableLine(json)).toBe('09:14:03 ERROR capture reconcile failed err="EC2 refused" attempt=2\n');
  });

  it('passes anything that is not a JSON line unchanged', () => {
    expect(readableLine('plain text\n')).toBe('plain text\n');
  });
});
