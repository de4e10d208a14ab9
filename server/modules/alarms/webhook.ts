import crypto from 'node:crypto';
import { notificationText, type Notification } from './alarm-text';
import type { DeliveryChannel } from './delivery';

/** A receiver that does not answer by then counts as a failed attempt (it is retried). */
const WEBHOOK_TIMEOUT_MS = 10_000;

/** `sha256=<hex>`: HMAC-SHA256 of the exact body, the GitHub-style signature receivers verify. */
export function signBody(body: string, secret: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * POSTs `{ text, event, alarms }` as JSON (and `alarm` when it is about one): `text` is what Slack and
 * Teams incoming webhooks display, the rest is for receivers that act on alarms. Anything but a 2xx
 * answer is a failed attempt.
 */
export function webhookChannel(options: { url: string; secret?: string; timeoutMs?: number }): DeliveryChannel {
  return {
    name: 'webhook',
    async send(notification: Notification) {
      const { event, alarms } = notification;
      const body = JSON.stringify({
        text: notificationText(notification),
        event,
        alarms,
        ...(alarms.length === 1 ? { alarm: alarms[0] } : {}),
      });
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': 'capture-command-center-alarms',
      };
      if (options.secret) headers['x-signature-256'] = signBody(body, options.secret);
      let response: Response;
      try {
        response = await fetch(options.url, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.timeout(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS),
        });
      } catch (error) {
        // The URL itself may carry a token (Slack's do): name the cause, never the address.
        throw new Error(`The webhook could not be reached: ${causeOf(error)}`, { cause: error });
      }
      await response.body?.cancel();
      if (!response.ok) throw new Error(`The webhook answered HTTP ${response.status}`);
    },
  };
}

function causeOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time';
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return cause?.code ?? (error instanceof Error ? error.message : String(error));
}
