import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { alarmsResponseSchema } from '../../../contract/alarms';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { scaled } from '../../../testkit/time-scale';

interface Received {
  from: string;
  to: string[];
  user: string | undefined;
  data: string;
}

/** A real SMTP server on loopback: checks the login, refuses the first `refuse` messages with 451. */
function smtpPeer() {
  const received: Received[] = [];
  const state = { refuse: 0 };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === 'alarms' && auth.password === 'smtp-pass-1') return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (state.refuse > 0) {
          state.refuse--;
          return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        }
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push({
          from,
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  return { server, received, state };
}

describe('alarm e-mail', () => {
  const smtp = smtpPeer();
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => smtp.server.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.server.address() as AddressInfo;
    t = await createTestApp({
      env: {
        SMTP_URL: `smtp://alarms:smtp-pass-1@127.0.0.1:${port}`,
        ALARM_EMAIL_TO: 'duty@example.org, lead@example.org',
        ALARM_EMAIL_FROM: 'capture@example.org',
        ALARM_GROUP_WINDOW_SECONDS: '0',
      },
      build: { healthCheckIntervalMs: 0, alarmDelivery: { retryDelaysMs: [50, 100] } },
    });
    token = await t.login();
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
  });

  it('sends the alarm to every recipient, signed in to the SMTP server, retrying a refused first attempt', async () => {
    smtp.state.refuse = 1;
    const alarm = await t.app.ctx.alarms.raise({
      kind: 'capture_failed',
      key: 'outcome:rec-1',
      message: 'No media — the stream never came',
      mosqueId: 'm1',
      mosqueName: 'Al Noor Mosque',
      jobId: 'job-7',
    });
    await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: scaled(10_000) });
    const [mail] = smtp.received;
    expect(mail).toMatchObject({
      from: 'capture@example.org',
      to: ['duty@example.org', 'lead@example.org'],
      user: 'alarms',
    });
    // The subject is the one-line text; the body names the facts.
    expect(subjectOf(mail)).toBe('🔴 CRITICAL Al Noor Mosque: No media — the stream never came (Monday 2026-11-23)');
    expect(mail.data).toContain('Mosque: Al Noor Mosque');
    expect(mail.data).toContain('Job: job-7');

    await vi.waitFor(
      async () => {
        const response = await t.request({ method: 'GET', url: '/api/alarms', token });
        const listed = alarmsResponseSchema.parse(response.json()).data.alarms.find((a) => a.id === alarm.id);
        expect(listed?.deliveries).toMatchObject([
          { channel: 'email', event: 'raised', state: 'delivered', attempts: 2, last_error: null },
        ]);
      },
      { timeout: scaled(5000) },
    );
  });
});

describe('alarm e-mail refused', () => {
  it('says why, without the password of SMTP_URL', async () => {
    const smtp = smtpPeer();
    await new Promise<void>((resolve) => smtp.server.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.server.address() as AddressInfo;
    const t = await createTestApp({
      env: {
        SMTP_URL: `smtp://alarms:wrong-secret-pw@127.0.0.1:${port}`,
        ALARM_EMAIL_TO: 'duty@example.org',
        ALARM_GROUP_WINDOW_SECONDS: '0',
      },
      build: { healthCheckIntervalMs: 0, alarmDelivery: { retryDelaysMs: [] } },
    });
    try {
      const token = await t.login();
      const alarm = await t.app.ctx.alarms.raise({ kind: 'missed', key: 'missed:job-1', message: 'Never launched' });
      await vi.waitFor(
        async () => {
          const response = await t.request({ method: 'GET', url: '/api/alarms', token });
          const [delivery] =
            alarmsResponseSchema.parse(response.json()).data.alarms.find((a) => a.id === alarm.id)?.deliveries ?? [];
          expect(delivery).toMatchObject({ channel: 'email', state: 'failed', attempts: 1 });
          expect(delivery.last_error).toMatch(/^The e-mail could not be sent: the SMTP server answered 535/);
          expect(response.body).not.toContain('wrong-secret-pw');
        },
        { timeout: scaled(10_000) },
      );
      expect(smtp.received).toHaveLength(0);
    } finally {
      await t.close();
      await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
    }
  });
});

describe('alarm e-mail of a wave', () => {
  it('sends the alarms raised within the group window as one e-mail listing each', async () => {
    const smtp = smtpPeer();
    await new Promise<void>((resolve) => smtp.server.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.server.address() as AddressInfo;
    const t = await createTestApp({
      env: { SMTP_URL: `smtp://alarms:smtp-pass-1@127.0.0.1:${port}`, ALARM_EMAIL_TO: 'duty@example.org' },
      build: { healthCheckIntervalMs: 0 },
    });
    try {
      for (const n of [1, 2, 3]) {
        await t.app.ctx.alarms.raise({
          kind: 'launch_failed',
          key: `launch_failed:wave-${n}`,
          message: 'could not be launched',
          mosqueName: `Wave Mosque ${n}`,
          jobId: `wave-${n}`,
        });
        t.clock.advance(5_000);
      }
      t.clock.advance(20_000);
      await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: scaled(10_000) });
      const [mail] = smtp.received;
      expect(subjectOf(mail)).toBe('🔴 CRITICAL 3 mosques failed to start at 09:00 UTC (Monday 2026-11-23)');
      for (const n of [1, 2, 3]) expect(mail.data).toContain(`Job: wave-${n}`);
    } finally {
      await t.close();
      await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
    }
  });
});

/** The message's subject, decoded from RFC 2047 (its emoji and dashes are encoded). */
function subjectOf(mail: Received): string {
  const subject = /^Subject: (.+(?:\r\n .+)*)/m.exec(mail.data)?.[1] ?? '';
  // Whitespace between two encoded words is folding, not text.
  return subject.replace(/=\?UTF-8\?([BQ])\?(.*?)\?=(?:\s+(?==\?))?/gi, (_, encoding: string, text: string) =>
    encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQ(text),
  );
}

function decodeQ(text: string): string {
  const bytes = text
    .replace(/_/g, ' ')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}
