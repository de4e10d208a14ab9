import crypto from 'node:crypto';
import type { MediaRendition } from '../../../contract/recordings';

/** How long a signed media link works: long enough to watch a whole sermon with seeking. */
export const MEDIA_LINK_SECONDS = 3 * 3600;

/**
 * Signed links for the <video> element, which cannot send a bearer header:
 * `token=<expiry>.<session id>.<HMAC>` over the recording id, expiry and the session that asked for it,
 * so a link opens one recording until it expires or its session ends (logout, revoked), and nothing else.
 * A rendition's link (the audio-only file) signs its name too: it opens that rendition, not the recording.
 */
export class MediaLinks {
  constructor(private readonly key: Buffer) {}

  issue(
    recordingId: string,
    sessionId: string,
    now: Date,
    rendition?: MediaRendition,
  ): { token: string; expiresAt: Date } {
    const expiresAt = new Date(now.getTime() + MEDIA_LINK_SECONDS * 1000);
    const expiry = Math.floor(expiresAt.getTime() / 1000);
    return { token: `${expiry}.${sessionId}.${this.sign(recordingId, expiry, sessionId, rendition)}`, expiresAt };
  }

  /** The session a token was issued by, when it was issued for this recording (and rendition) and has not expired; else null. */
  verify(recordingId: string, token: string, now: Date, rendition?: MediaRendition): string | null {
    const [expiryText, sessionId, signature, ...rest] = token.split('.');
    const expiry = Number(expiryText);
    if (!Number.isSafeInteger(expiry) || !sessionId || !signature || rest.length || expiry * 1000 < now.getTime())
      return null;
    const expected = Buffer.from(this.sign(recordingId, expiry, sessionId, rendition));
    const given = Buffer.from(signature);
    return expected.length === given.length && crypto.timingSafeEqual(expected, given) ? sessionId : null;
  }

  private sign(recordingId: string, expiry: number, sessionId: string, rendition?: MediaRendition): string {
    // The recording's own links sign what they always did, so those already handed out keep working.
    const signed = `${recordingId}\n${expiry}\n${sessionId}${rendition ? `\n${rendition}` : ''}`;
    return crypto.createHmac('sha256', this.key).update(signed).digest('base64url');
  }
}
