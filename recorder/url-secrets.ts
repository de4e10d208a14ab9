/*
 * What of a stream URL may be shown: a stream may need a password (`http://user:password@host/`) or a
 * signed query (`?token=...`, `?X-Amz-Signature=...`), and any operator who sees the URL could record
 * the stream with them elsewhere or read them out of a screenshot. The full URL stays with the server
 * and the recorder; answers and logs carry it with those parts as `***`. Part of the recorder runtime
 * (its logs use it) and imported by the server for every answer: no imports.
 */

/** Query parameter names that carry a secret: tokens, keys, signatures, passwords, session and CDN auth parameters. */
const SECRET_PARAMETER =
  /token|key|secret|sig(nature)?$|^sig|auth|pass|pwd|credential|session|jwt|hmac|policy|hdnts|hdnea|^st$|^hash$/i;

/** A URL in running text: a scheme, `://`, then everything up to a space, a quote or an angle bracket. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>`]+/gi;

export const MASK = '***';

function maskUrl(url: string): string {
  const authorityStart = url.indexOf('//') + 2;
  const authorityEnd = url.slice(authorityStart).search(/[/?#]/);
  const authority =
    authorityEnd === -1 ? url.slice(authorityStart) : url.slice(authorityStart, authorityStart + authorityEnd);
  // The host follows the last "@" of the authority: everything before it is user info.
  const at = authority.lastIndexOf('@');
  const masked = at === -1 ? authority : `${MASK}@${authority.slice(at + 1)}`;
  const rest = authorityEnd === -1 ? '' : url.slice(authorityStart + authorityEnd);
  return `${url.slice(0, authorityStart)}${masked}${maskQuery(rest)}`;
}

/** `/path?token=abc&x=1#f` -> `/path?token=***&x=1#f`. */
function maskQuery(rest: string): string {
  const question = rest.indexOf('?');
  if (question === -1) return rest;
  const hash = rest.indexOf('#', question);
  const query = rest.slice(question + 1, hash === -1 ? undefined : hash);
  const maskedQuery = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const name = safeDecode(pair.slice(0, equals));
      return SECRET_PARAMETER.test(name) ? `${pair.slice(0, equals)}=${MASK}` : pair;
    })
    .join('&');
  return `${rest.slice(0, question + 1)}${maskedQuery}${hash === -1 ? '' : rest.slice(hash)}`;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** `text` (a URL, or a sentence or log line holding URLs) with every URL's user info and secret query values as `***`. */
export function maskUrlSecrets(text: string): string {
  // Punctuation that ends a sentence ends the URL too ("could not resolve <url>: 403").
  return text.replace(URL_IN_TEXT, (url) => {
    const tail = /[.,;:!?)\]]+$/.exec(url)?.[0] ?? '';
    return `${maskUrl(url.slice(0, url.length - tail.length))}${tail}`;
  });
}

/** The same for a text that may be absent (a reason not given yet). */
export function maskUrlSecretsOrNull(text: string | null): string | null {
  return text === null ? null : maskUrlSecrets(text);
}

/** Whether `url` is one this module masked (its user info or a query value is `***`): it no longer opens the stream. */
export function isMaskedUrl(url: string): boolean {
  if (!url.includes(MASK)) return false;
  try {
    const parsed = new URL(url);
    return parsed.username === MASK || [...parsed.searchParams.values()].includes(MASK);
  } catch {
    return false;
  }
}
