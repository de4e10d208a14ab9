import type { Transporter } from 'nodemailer';
import type { Alarm } from '../../../contract/alarms';
import { alarmText, type DeliveryEvent } from './alarm-text';
import type { DeliveryChannel } from './delivery';

/** An SMTP server that does not answer by then counts as a failed attempt (it is retried). */
const SMTP_TIMEOUT_MS = 15_000;

/** The plain-text body: the one-line summary, then every fact an operator needs to act on it. */
export function alarmEmailBody(alarm: Alarm, event: DeliveryEvent): string {
  const facts: [string, string | null][] = [
    ['Kind', alarm.kind],
    ['Severity', alarm.severity],
    ['Mosque', alarm.mosque_name ?? alarm.mosque_id],
    ['Instance', alarm.instance_id],
    ['Job', alarm.job_id],
    ['Raised', alarm.raised_at],
    ['Resolved', alarm.resolved_at],
    ['Alarm', alarm.id],
  ];
  const lines = facts.filter(([, value]) => value !== null).map(([label, value]) => `${label}: ${value}`);
  const heading = event === 'resolved' ? 'The cause of this alarm has cleared.' : alarm.message;
  return `${heading}\n\n${lines.join('\n')}\n\nOpen the console's Alarms page to acknowledge it.\n`;
}

/** Sends each alarm change as one plain-text e-mail through the SMTP server of `SMTP_URL`. */
export function emailChannel(options: { smtpUrl: string; to: string[]; from: string }): DeliveryChannel {
  // nodemailer is loaded with the first alarm to send, not at start.
  let transport: Promise<Transporter> | undefined;
  const connect = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: options.smtpUrl,
        connectionTimeout: SMTP_TIMEOUT_MS,
        greetingTimeout: SMTP_TIMEOUT_MS,
        socketTimeout: SMTP_TIMEOUT_MS,
      }),
    ));
  return {
    name: 'email',
    async send(alarm: Alarm, event: DeliveryEvent) {
      try {
        await (await connect()).sendMail({ from: options.from, to: options.to, subject: alarmText(alarm, event), text: alarmEmailBody(alarm, event) });
      } catch (error) {
        // SMTP_URL may hold a password: report the server's answer or the network cause, never the URL.
        throw new Error(`The e-mail could not be sent: ${smtpCause(error)}`, { cause: error });
      }
    },
  };
}

function smtpCause(error: unknown): string {
  const { code, responseCode, response } = (error ?? {}) as { code?: string; responseCode?: number; response?: string };
  if (responseCode && response) return `the SMTP server answered ${response.slice(0, 200)}`;
  return code ?? (error instanceof Error ? error.message.slice(0, 200) : String(error));
}
