import { isUtf8 } from 'node:buffer';
import type { FastifyRequest } from 'fastify';
import type { AppInstance } from '../lib/fastify';
import { badRequest, HttpError } from '../lib/http-error';
import { registerUrlLengthGuard } from './url-length';

/** Half of a UTF-16 surrogate pair. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Any surrogate half: one cheap scan that clears nearly every string without the look-around test. */
const SURROGATE_HALF = /[\uD800-\uDFFF]/;

/** NUL or a lone surrogate: text that PostgreSQL refuses and SQLite would store mangled. */
const unsafe = (text: string) => text.includes('\u0000') || (SURROGATE_HALF.test(text) && LONE_SURROGATE.test(text));

const PARTS = [
  ['params', 'Path parameters are invalid'],
  ['query', 'Query string is invalid'],
  ['body', 'Request body is invalid'],
] as const;

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * Where the first string or key holding a NUL character or an unpaired surrogate is (`a.b.0`, '' for
 * the value itself), or undefined when there is none. Walks without recursion: a 1 MB body may nest
 * hundreds of thousands of levels. Strings are checked where they are met and only objects are
 * stacked, so a flat query or body costs no allocation per field.
 */
export function findUnsafeText(value: unknown): string | undefined {
  if (typeof value === 'string') return unsafe(value) ? '' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  const stack: Array<{ node: object; path: string }> = [{ node: value, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop() as { node: object; path: string };
    for (const key of Object.keys(node)) {
      if (unsafe(key)) return path || '(a key)';
      const child: unknown = (node as Record<string, unknown>)[key];
      if (typeof child === 'string') {
        if (unsafe(child)) return join(path, key);
      } else if (child !== null && typeof child === 'object') {
        stack.push({ node: child, path: join(path, key) });
      }
    }
  }
  return undefined;
}

function unsafeTextError(request: FastifyRequest): HttpError | undefined {
  for (const [part, context] of PARTS) {
    const value: unknown = request[part];
    if (value === undefined || value === null) continue;
    const at = findUnsafeText(value);
    if (at !== undefined) {
      return badRequest(
        `${context}: ${at || 'the value'} contains a NUL character or invalid Unicode (an unpaired surrogate), which text may not hold`,
      );
    }
  }
  return undefined;
}

/**
 * Input checks every route gets before its own schema:
 * - a JSON body with a `__proto__` or `constructor.prototype` key is refused with that reason (Fastify's
 *   parser refuses it too, but reports it as invalid JSON);
 * - a body that is not valid UTF-8 is refused, not stored with U+FFFD in place of its bytes;
 * - text with NUL or unpaired surrogates is refused the same way on SQLite and PostgreSQL, instead of
 *   being stored altered on one and failing with a 500 on the other;
 * - a compressed body (Content-Encoding) is refused with 415 before it is read: no route takes one, and
 *   its bytes would otherwise be judged as "not valid UTF-8";
 * - a path longer than any route's is refused with 414 (url-length.ts).
 */
export function registerInputGuard(app: AppInstance): void {
  registerUrlLengthGuard(app);
  app.addHook('onRequest', (request, _reply, done) => {
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    if (!encoding || encoding === 'identity') return done();
    done(
      new HttpError(
        415,
        `Request bodies may not be compressed (Content-Encoding: ${encoding.slice(0, 40)}): send it uncompressed`,
      ),
    );
  });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // As a buffer: decoded as a string, invalid UTF-8 would turn into U+FFFD and be stored altered.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if (typeof body !== 'string' && !isUtf8(body))
      return done(badRequest('Request body is not valid UTF-8'), undefined);
    const text = typeof body === 'string' ? body : body.toString('utf8');
    void parseJson(request, text, (error, value) => {
      if (!error) return done(null, value);
      let plainJson = false;
      try {
        JSON.parse(text);
        plainJson = true;
      } catch {
        // really not JSON: Fastify's error stands
      }
      done(
        plainJson
          ? badRequest('Request body is invalid: keys named __proto__ or constructor.prototype are not allowed')
          : error,
        undefined,
      );
    });
  });
  // Callback style: no promise per request on the hot path.
  app.addHook('preValidation', (request, _reply, done) => {
    done(unsafeTextError(request));
  });
}
