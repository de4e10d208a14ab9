import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../lib/clock';
import { unauthorized } from '../../lib/http-error';

/** The header a call from another server carries: `<server id>.<unix ms>.<nonce>.<HMAC>` (the id may hold dots). */
export const INTERNAL_SIGNATURE_HEADER = 'x-internal-signature';
/** Clocks of servers on one database agree within this; an older signature is refused (no replays later on). */
const MAX_SKEW_MS = 30_000;
/** A call to a live server answers well within this; slower means it is not really alive. */
export const INTERNAL_CALL_TIMEOUT_MS = 1500;
const NONCE = /^[A-Za-z0-9_-]{22}$/;

/** The server a call is meant for: a signature names it, so it is good on that server only. */
export interface CallTarget {
  id: string;
  internal_address: string;
}

/**
 * Calls between servers sharing one database (recorder control, media), signed with a key derived
 * from the SECRET_KEY they share: only a server of the same deployment can make one. The signature
 * covers the server it is meant for, method, path and query, the body's hash, the time and a nonce: a
 * call seen on the wire cannot be altered, sent to another server, or replayed, since each server
 * remembers the nonces it accepted for as long as their time is fresh.
 */
export class InternalCalls {
  /** Nonces accepted, with their signature's time: forgotten once that time is too old to pass anyway. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly key: Buffer,
    private readonly clock: Clock,
    private readonly serverId: string,
  ) {}

  private mac(target: string, method: string, url: string, body: string, at: string, nonce: string): string {
    const bodyHash = crypto.createHash('sha256').update(body).digest('base64url');
    return crypto
      .createHmac('sha256', this.key)
      .update(`${target}\n${method.toUpperCase()}\n${url}\n${bodyHash}\n${at}\n${nonce}`)
      .digest('base64url');
  }

  sign(target: string, method: string, url: string, body = ''): string {
    const at = String(this.clock.now().getTime());
    const nonce = crypto.randomBytes(16).toString('base64url');
    return `${this.serverId}.${at}.${nonce}.${this.mac(target, method, url, body, at, nonce)}`;
  }

  /** True when the header is a fresh signature of this very request, meant for this server, not seen before. */
  verify(method: string, url: string, body: string, header: string | undefined): boolean {
    // The caller's id may hold dots (a hostname): the time, the nonce and the MAC are the last three parts.
    const parts = header?.split('.') ?? [];
    const [at, nonce, mac] = parts.slice(-3);
    if (parts.length < 4 || !at || !nonce || !mac || !/^\d+$/.test(at) || !NONCE.test(nonce)) return false;
    const now = this.clock.now().getTime();
    if (Math.abs(now - Number(at)) > MAX_SKEW_MS) return false;
    const expected = Buffer.from(this.mac(this.serverId, method, url, body, at, nonce));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return false;
    for (const [old, time] of this.seen) if (now - time > MAX_SKEW_MS) this.seen.delete(old);
    if (this.seen.has(nonce)) return false;
    this.seen.set(nonce, Number(at));
    return true;
  }

  /** A route guard (preValidation: the body is parsed, so it is what was signed). */
  readonly guard = async (request: FastifyRequest): Promise<void> => {
    const body = request.body === undefined ? '' : JSON.stringify(request.body);
    const header = request.headers[INTERNAL_SIGNATURE_HEADER];
    if (!this.verify(request.method, request.url, body, typeof header === 'string' ? header : undefined)) {
      throw unauthorized('A valid internal signature is required');
    }
  };

  /**
   * Calls another server; throws when it has not answered (its headers) in time. The body is then
   * the caller's to read, untimed: media streams for as long as the player takes it.
   */
  async call(
    target: CallTarget,
    method: 'GET' | 'POST',
    url: string,
    options: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<Response> {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const address = target.internal_address;
    const abort = new AbortController();
    const timer = setTimeout(
      () =>
        abort.abort(new Error(`no answer from ${address} within ${options.timeoutMs ?? INTERNAL_CALL_TIMEOUT_MS} ms`)),
      options.timeoutMs ?? INTERNAL_CALL_TIMEOUT_MS,
    );
    return fetch(`${address}${url}`, {
      method,
      headers: {
        ...options.headers,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        [INTERNAL_SIGNATURE_HEADER]: this.sign(target.id, method, url, body ?? ''),
      },
      body,
      signal: abort.signal,
    }).finally(() => clearTimeout(timer));
  }
}
