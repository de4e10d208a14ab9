import type { Transporter } from 'nodemailer';
import type { Alarm } from '../../../contract/alarms';
import { notificationHeadline, notificationLines, type DeliveryEvent, type Notification } from './alarm-text';
import type { DeliveryChannel } from './delivery';

/** An SMTP server that does not answer by then counts as a failed attempt (it is retried). */
const SMTP_TIMEOUT_MS = 15_000;

/** The facts of one alarm an operator needs to act on it. */
function alarmFacts(alarm: Alarm): string {
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
  return facts
    .filter(([, value]) => value !== null)
    .map(([label, value]) => `${label}: ${value}`)
    .join('\n');
}

const HEADINGS: Record<DeliveryEvent, (alarm: Alarm) => string> = {
  raised: (alarm) => alarm.message,
  repeated: (alarm) => `Still open: ${alarm.message}`,
  resolved: () => 'The cause of this alarm has cleared.',
};

/** The plain-text body: for one alarm its sentence and facts; for a wave the list, then each alarm's facts. */
function alarmEmailBody(notification: Pick<Notification, 'alarms' | 'event'>): string {
  const { alarms, event } = notification;
  const list = notificationLines(notification);
  const intro = list.length > 0 ? `${list.join('\n')}\n\n` : '';
  const details = alarms.map((alarm) => `${HEADINGS[event](alarm)}\n\n${alarmFacts(alarm)}`).join('\n\n---\n\n');
  return `${intro}${details}\n\nOpen the console's Alarms page to acknowledge ${alarms.length === 1 ? 'it' : 'them'}.\n`;
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
    async send(notification: Notification) {
      try {
        await (
          await connect()
        ).sendMail({
          from: options.from,
          to: options.to,
          subject: notificationHeadline(notification),
          text: alarmEmailBody(notification),
        });
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
