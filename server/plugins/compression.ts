import fastifyCompress from '@fastify/compress';
import type { AppInstance } from '../lib/fastify';

/** Bodies smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;
/**
 * Only JSON is compressed on the fly. The console's files are compressed once, at build (see
 * plugins/console.ts), and media are never: a video is already compressed, and a range answer's
 * offsets count the bytes of the file itself.
 */
const COMPRESSIBLE = /^application\/json(?:;|$)/;

/**
 * API answers of 1 KiB or more are sent with brotli (at a quality cheap enough per request) or gzip,
 * as the client accepts. Request bodies are still read only as sent (no Content-Encoding), as before.
 * Must be registered before the routes: the plugin attaches itself to each route as it is added.
 */
export async function registerCompression(app: AppInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    route.decompress = false;
  });
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    customTypes: COMPRESSIBLE,
  });
}
