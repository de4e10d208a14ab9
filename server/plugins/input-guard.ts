import { isUtf8 } from 'node:buffer';
import type { FastifyRequest } from 'fastify';
import type { AppInstance } from '../lib/fastify';
import { badRequest, type HttpError } from '../lib/http-error';

/** Half of a UTF-16 surrogate pair. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** NUL or a lone surrogate: text that PostgreSQL refuses and SQLite would store mangled. */
const unsafe = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

const PARTS = [
  ['params', 'Path parameters are invalid'],
  ['query', 'Query string is invalid'],
  ['body', 'Request body is invalid'],
] as const;

/**
 * Where the first string or key holding a NUL character or an unpaired surrogate is (`a.b.0`, '' for
 * the value itself), or undefined when there is none. Walks without recursion: a 1 MB body may nest
 * hundreds of thousands of levels.
 */
export function findUnsafeText(value: unknown): string | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; path: string };
    if (typeof item.value === 'string') {
      if (unsafe(item.value)) return item.path;
    } else if (item.value !== null && typeof item.value === 'object') {
      for (const [key, child] of Object.entries(item.value)) {
        const path = item.path ? `${item.path}.${key}` : key;
        if (unsafe(key)) return item.path || '(a key)';
        stack.push({ value: child, path });
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
      return badRequest(`${context}: ${at || 'the value'} contains a NUL character or invalid Unicode (an unpaired surrogate), which text may not hold`);
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
 *   being stored altered on one and failing with a 500 on the other.
 */
export function registerInputGuard(app: AppInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // As a buffer: decoded as a string, invalid UTF-8 would turn into U+FFFD and be stored altered.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if (typeof body !== 'string' && !isUtf8(body)) return done(badRequest('Request body is not valid UTF-8'), undefined);
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
      done(plainJson ? badRequest('Request body is invalid: keys named __proto__ or constructor.prototype are not allowed') : error, undefined);
    });
  });
  // Callback style: no promise per request on the hot path.
  app.addHook('preValidation', (request, _reply, done) => {
    done(unsafeTextError(request));
  });
}
