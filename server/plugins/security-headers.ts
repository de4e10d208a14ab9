import type { AppInstance } from '../lib/fastify';

/**
 * The console keeps its session token in localStorage, so script injection must have nowhere to load
 * from or send to: scripts only from this origin, connections only to it (its live socket included:
 * CSP3 'self' matches ws:/wss: of the same host). Styles allow 'unsafe-inline' because MUI's emotion
 * injects <style> elements at run time; style injection cannot run script. Images and media may be
 * blob: URLs, which only this origin's own scripts can mint: a stream test's clip is fetched with the
 * bearer token (a plain source could not carry it) and played from its blob.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS = Object.entries({
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
});

/**
 * Security headers on every answer: API, console, files and errors alike. API answers (a session's
 * token, users, mosques, logs) are never stored by a browser or a proxy cache unless a route says
 * otherwise (media: private, no-store too).
 */
export function registerSecurityHeaders(app: AppInstance): void {
  // Callback style: no promise per answer.
  app.addHook('onSend', (request, reply, payload, done) => {
    for (const [name, value] of HEADERS) if (!reply.hasHeader(name)) reply.header(name, value);
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
