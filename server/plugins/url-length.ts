import type { AppInstance } from '../lib/fastify';
import { HttpError } from '../lib/http-error';

/** Longer than any path the API or the console has (the longest is under 100 characters). */
export const MAX_PATH_LENGTH = 2048;

export const URL_TOO_LONG = 'The URL is too long';

function decodedLength(segment: string): number {
  try {
    return decodeURIComponent(segment).length;
  } catch {
    // Malformed percent-encoding: the router answers it with its own 400.
    return 0;
  }
}

/**
 * Whether the path (query string aside) is longer than MAX_PATH_LENGTH, or one of its segments is
 * longer, decoded, than a path parameter may be. Costs one comparison for every path shorter than
 * `maxSegment`, that is nearly all of them.
 */
export function pathTooLong(url: string, maxSegment: number): boolean {
  const question = url.indexOf('?');
  const path = question === -1 ? url : url.slice(0, question);
  if (path.length <= maxSegment) return false;
  if (path.length > MAX_PATH_LENGTH) return true;
  return path.split('/').some((segment) => segment.length > maxSegment && decodedLength(segment) > maxSegment);
}

/**
 * 414 for a path no route can have. The router answers a too long parameter itself only when no
 * other route matches: the console's catch-all route took every such path, then answered 404 "No
 * such endpoint" or, from the file system, 403 "Forbidden" (ENAMETOOLONG past about 4,000 characters).
 * Paths past Node's 16 KiB header limit get 431 before reaching here.
 */
export function registerUrlLengthGuard(app: AppInstance): void {
  const maxSegment = app.initialConfig.maxParamLength ?? 100;
  app.addHook('onRequest', (request, _reply, done) => {
    done(pathTooLong(request.url, maxSegment) ? new HttpError(414, URL_TOO_LONG) : undefined);
  });
}
