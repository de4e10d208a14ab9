/*
 * The HLS reader's HTTP client: one GET with a time limit on the whole answer and a cap on its size,
 * redirects followed. The cap is what keeps a hostile origin (a "segment" of gigabytes) from taking
 * the recorder's memory: the answer is dropped as soon as it passes it, or at once when its
 * Content-Length says it will.
 * Node's http and https rather than fetch: fetch refuses ports its specification calls bad (6000,
 * 6665-6669, 10080, ...), on which a stream server is free to listen. Each hop (the first request and
 * every redirect) is checked by the egress guard and connects to the address it checked. Part of the
 * recorder runtime: Node and its siblings only.
 */
import http from 'node:http';
import https from 'node:https';
import { EgressRefused, pinnedLookup, type EgressPin } from './egress-guard';

export interface HttpFailure {
  error: string;
  /** No answer in time (a server holding the connection) is a stall; an address the guard refused is refused; anything else a drop. */
  cause: 'stream_dropped' | 'stream_stalled' | 'stream_refused';
  status: number | null;
}

/** `contentType`: what the final answer said it is (its media type, lower case), or null. */
export type HttpAnswer = { bytes: Uint8Array; url: string; contentType: string | null } | HttpFailure;

const MAX_REDIRECTS = 5;
const MIB = 1024 * 1024;
/** A playlist's cap: 2 MiB holds some 20,000 segment lines, far past any live playlist's window. */
export const PLAYLIST_MAX_BYTES = 2 * MIB;
/** A segment's cap: 64 MiB is 20 Mbit/s (well above any sermon's stream) for a 25 s segment. */
export const SEGMENT_MAX_BYTES = 64 * MIB;
const NAMED_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/**
 * GETs `url` within `timeoutMs` (for the whole answer, redirects included) and at most `maxBytes`; the
 * final URL comes with the bytes. An answer over the cap is refused (`stream_refused`), never retried.
 * `headersOnly`: the answer's headers are enough (a live audio stream's body never ends): no bytes are read.
 */
export function getBytes(
  url: string,
  timeoutMs: number,
  pin: EgressPin,
  maxBytes: number,
  headersOnly = false,
): Promise<HttpAnswer> {
  const deadline = Date.now() + timeoutMs;
  const timedOut: HttpFailure = {
    error: `no answer within ${Math.round(timeoutMs / 1000)} s`,
    cause: 'stream_stalled',
    status: null,
  };
  const tooLarge = (status: number): HttpFailure => ({
    error: `answer over its ${Math.round(maxBytes / MIB)} MiB cap: refused`,
    cause: 'stream_refused',
    status,
  });
  const get = async (current: string, redirects: number): Promise<HttpAnswer> => {
    let target: URL;
    try {
      target = new URL(current);
    } catch {
      return { error: `not a URL: ${current.slice(0, 100)}`, cause: 'stream_dropped', status: null };
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      return {
        error: `${redirects ? 'redirected to' : 'a URL of'} ${target.protocol} (only http and https)`,
        cause: 'stream_dropped',
        status: null,
      };
    let pinned;
    let late: NodeJS.Timeout | undefined;
    try {
      // The name's lookup counts against the time limit too: a resolver that never answers is a stall.
      const expired = new Promise<'expired'>(
        (resolve) => (late = setTimeout(() => resolve('expired'), Math.max(0, deadline - Date.now()))),
      );
      pinned = await Promise.race([
        pin(target.hostname, Number(target.port) || (target.protocol === 'https:' ? 443 : 80)),
        expired,
      ]);
      if (pinned === 'expired') return timedOut;
    } catch (error) {
      if (error instanceof EgressRefused) return { error: error.message, cause: 'stream_refused', status: null };
      return failure(error as NodeJS.ErrnoException);
    } finally {
      clearTimeout(late);
    }
    return new Promise((resolve) => {
      const client = target.protocol === 'https:' ? https : http;
      const headers = { 'user-agent': 'capture-recorder', accept: '*/*' };
      const request = client.get(
        target,
        pinned ? { headers, lookup: pinnedLookup(pinned) } : { headers },
        (response) => {
          const status = response.statusCode ?? 0;
          const location = response.headers.location;
          if (status >= 300 && status < 400 && location) {
            response.resume();
            clearTimeout(timer);
            if (redirects >= MAX_REDIRECTS)
              return resolve({ error: `more than ${MAX_REDIRECTS} redirects`, cause: 'stream_dropped', status });
            return resolve(get(new URL(location, target).href, redirects + 1));
          }
          if (status < 200 || status >= 300) {
            response.resume();
            clearTimeout(timer);
            return resolve({ error: `HTTP ${status}`, cause: 'stream_dropped', status });
          }
          const contentType = response.headers['content-type']?.split(';')[0].trim().toLowerCase() || null;
          if (headersOnly) {
            clearTimeout(timer);
            response.destroy();
            return resolve({ bytes: new Uint8Array(), url: target.href, contentType });
          }
          const refuse = () => {
            clearTimeout(timer);
            request.destroy();
            resolve(tooLarge(status));
          };
          if (Number(response.headers['content-length']) > maxBytes) return refuse();
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              chunks.length = 0;
              return refuse();
            }
            chunks.push(chunk);
          });
          response.on('end', () => {
            clearTimeout(timer);
            // A view on the joined chunks: new Uint8Array(buffer) copies, and every segment's copy was garbage to collect.
            const joined = Buffer.concat(chunks, size);
            const bytes = new Uint8Array(joined.buffer, joined.byteOffset, joined.length);
            resolve({ bytes, url: target.href, contentType });
          });
          response.on('error', () => undefined); // the request's error handler answers
        },
      );
      const timer = setTimeout(
        () => {
          request.destroy();
          resolve(timedOut);
        },
        Math.max(0, deadline - Date.now()),
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        resolve(failure(error));
      });
    });
  };
  return get(url, 0);
}

function failure(error: NodeJS.ErrnoException): HttpFailure {
  return {
    error: (error.code && NAMED_ERRORS[error.code]) ?? error.code ?? error.message,
    cause: 'stream_dropped',
    status: null,
  };
}
