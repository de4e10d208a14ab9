import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppInstance } from '../lib/fastify';
import { errorBody } from './errors';

/** The encodings `npm run build` writes beside each console file (name.br, name.gz). */
const PRECOMPRESSED = /\.(?:br|gz)$/;

/**
 * Serves the built console, with history fallback so deep links such as /users load the app.
 * Unknown /api paths answer 404 JSON instead. Files are sent as compressed at build (brotli, else
 * gzip, as the browser accepts; `Vary: Accept-Encoding`), so nothing is compressed per request.
 */
export async function registerConsole(
  app: AppInstance,
  consoleDir: string | undefined,
  /** Told of each unknown /api path as it is answered (routes have their own hooks; this matched none). */
  onApiNotFound?: (request: FastifyRequest, reply: FastifyReply) => void,
): Promise<void> {
  const hasConsole = consoleDir !== undefined && fs.existsSync(path.join(consoleDir, 'index.html'));
  if (hasConsole) {
    await app.register(fastifyStatic, {
      root: consoleDir,
      // One route for every file, looked up when asked: a route per file (wildcard: false) lists the
      // directory and builds the router's tree of each at every start, a tenth of the start-up time.
      wildcard: true,
      maxAge: '1h',
      immutable: false,
      preCompressed: true,
      // The page names the current release's hashed assets: it must be revalidated, or a release is missed for an hour.
      setHeaders: (response, file) => {
        if (path.basename(file).replace(PRECOMPRESSED, '') === 'index.html')
          response.header('cache-control', 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    const isApiPath = url === '/api' || url.startsWith('/api/');
    const isApi = isApiPath || url === '/ws' || url === '/metrics';
    // A missing asset is missing: answered with the page instead, a stale tab would run HTML as a script.
    const isAsset = url.startsWith('/assets/');
    if (!isApi && !isAsset && hasConsole && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
    }
    const detail = isApi
      ? `No such endpoint: ${request.method} ${url}`
      : isAsset && hasConsole
        ? `No such file: ${url.slice(0, 200)}`
        : 'Not found (the console has not been built: run npm run build)';
    reply.code(404);
    if (isApiPath) onApiNotFound?.(request, reply);
    return reply.send(errorBody(detail));
  });
}
