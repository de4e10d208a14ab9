import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../lib/clock';
import { unauthorized } from '../../lib/http-error';

/** The header a call from another server carries: `<server id>.<unix ms>.<HMAC>` (the id may hold dots). */
export const INTERNAL_SIGNATURE_HEADER = 'x-internal-signature';
/** Clocks of servers on one database agree within this; an older signature is refused (no replays later on). */
const MAX_SKEW_MS = 30_000;
/** A call to a live server answers well within this; slower means it is not really alive. */
export const INTERNAL_CALL_TIMEOUT_MS = 1500;

/**
 * Calls between servers sharing one database (recorder control, media), signed with a key derived
 * from the SECRET_KEY they share: only a server of the same deployment can make one. The signature
 * covers method, path and query, the body's hash and the time, so a call seen on the wire cannot
 * be altered, and cannot be replayed after MAX_SKEW_MS.
 */
export class InternalCalls {
  constructor(
    private readonly key: Buffer,
    private readonly clock: Clock,
    private readonly serverId: string,
  ) {}

  private mac(method: string, url: string, body: string, at: string): string {
    const bodyHash = crypto.createHash('sha256').update(body).digest('base64url');
    return crypto
      .createHmac('sha256', this.key)
      .update(`${method.toUpperCase()}\n${url}\n${bodyHash}\n${at}`)
      .digest('base64url');
  }

  sign(method: string, url: string, body = ''): string {
    const at = String(this.clock.now().getTime());
    return `${this.serverId}.${at}.${this.mac(method, url, body, at)}`;
  }

  /** True when the header is a fresh signature of this very request. */
  verify(method: string, url: string, body: string, header: string | undefined): boolean {
    // The caller's id may hold dots (a hostname): the time and the MAC are the last two parts.
    const parts = header?.split('.') ?? [];
    const [at, mac] = parts.slice(-2);
    if (parts.length < 3 || !at || !mac || !/^\d+$/.test(at)) return false;
    if (Math.abs(this.clock.now().getTime() - Number(at)) > MAX_SKEW_MS) return false;
    const expected = Buffer.from(this.mac(method, url, body, at));
    const given = Buffer.from(mac);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
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
    address: string,
    method: 'GET' | 'POST',
    url: string,
    options: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<Response> {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
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
        [INTERNAL_SIGNATURE_HEADER]: this.sign(method, url, body ?? ''),
      },
      body,
      signal: abort.signal,
    }).finally(() => clearTimeout(timer));
  }
}
