import crypto from 'node:crypto';

/** How long a signed media link works: long enough to watch a whole sermon with seeking. */
export const MEDIA_LINK_SECONDS = 3 * 3600;

/**
 * Signed links for the <video> element, which cannot send a bearer header: `token=<expiry>.<HMAC>`
 * over the recording id and expiry, so a link opens one recording until it expires and nothing else.
 */
export class MediaLinks {
  constructor(private readonly key: Buffer) {}

  issue(recordingId: string, now: Date): { token: string; expiresAt: Date } {
    const expiresAt = new Date(now.getTime() + MEDIA_LINK_SECONDS * 1000);
    const expiry = Math.floor(expiresAt.getTime() / 1000);
    return { token: `${expiry}.${this.sign(recordingId, expiry)}`, expiresAt };
  }

  /** True when the token was issued for this recording and has not expired. */
  verify(recordingId: string, token: string, now: Date): boolean {
    const [expiryText, signature] = token.split('.');
    const expiry = Number(expiryText);
    if (!Number.isSafeInteger(expiry) || !signature || expiry * 1000 < now.getTime()) return false;
    const expected = Buffer.from(this.sign(recordingId, expiry));
    const given = Buffer.from(signature);
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  }

  private sign(recordingId: string, expiry: number): string {
    return crypto.createHmac('sha256', this.key).update(`${recordingId}\n${expiry}`).digest('base64url');
  }
}
