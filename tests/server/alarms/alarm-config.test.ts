import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';
import { configProblems } from '../helpers/config-problems';

describe('alarm delivery settings', () => {
  it('are off unless set', () => {
    expect(loadConfig({})).toMatchObject({
      alarmWebhookUrl: undefined,
      alarmWebhookSecret: undefined,
      smtpUrl: undefined,
      alarmEmailTo: [],
    });
  });

  it('read the webhook and the recipients', () => {
    const config = loadConfig({
      ALARM_WEBHOOK_URL: 'https://hooks.slack.com/services/T0/B0/x',
      ALARM_WEBHOOK_SECRET: 'a-secret-of-16-chars',
      SMTP_URL: 'smtps://alarms:pw@mail.example.org:465',
      ALARM_EMAIL_TO: ' duty@example.org , lead@example.org ',
      ALARM_EMAIL_FROM: 'capture@example.org',
    });
    expect(config).toMatchObject({
      alarmWebhookUrl: 'https://hooks.slack.com/services/T0/B0/x',
      alarmEmailTo: ['duty@example.org', 'lead@example.org'],
      alarmEmailFrom: 'capture@example.org',
    });
  });

  it('group alarms of 30 s and remind of open ones every 4 h unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ alarmGroupWindowMs: 30_000, alarmRepeatIntervalMs: 4 * 3_600_000 });
    expect(loadConfig({ ALARM_GROUP_WINDOW_SECONDS: '0', ALARM_REPEAT_HOURS: '0.5' })).toMatchObject({
      alarmGroupWindowMs: 0,
      alarmRepeatIntervalMs: 1_800_000,
    });
    expect(configProblems({ ALARM_GROUP_WINDOW_SECONDS: 'soon' })).toEqual([
      'ALARM_GROUP_WINDOW_SECONDS: ALARM_GROUP_WINDOW_SECONDS must be a number',
    ]);
    expect(configProblems({ ALARM_GROUP_WINDOW_SECONDS: '-1' })).toEqual([
      'ALARM_GROUP_WINDOW_SECONDS: ALARM_GROUP_WINDOW_SECONDS must be 0 to 3600',
    ]);
    expect(configProblems({ ALARM_REPEAT_HOURS: '0' })).toEqual([
      'ALARM_REPEAT_HOURS: ALARM_REPEAT_HOURS must be 0.25 to 168',
    ]);
  });

  it('refuse to start with a wrong or half-configured channel, saying what is wrong', () => {
    expect(configProblems({ ALARM_WEBHOOK_URL: 'ftp://example.org/hook' })).toEqual([
      'ALARM_WEBHOOK_URL: ALARM_WEBHOOK_URL must be an http(s) URL',
    ]);
    expect(configProblems({ ALARM_WEBHOOK_URL: 'https://example.org/hook', ALARM_WEBHOOK_SECRET: 'short' })).toEqual([
      'ALARM_WEBHOOK_SECRET: ALARM_WEBHOOK_SECRET must be at least 16 characters',
    ]);
    expect(configProblems({ ALARM_WEBHOOK_SECRET: 'a-secret-of-16-chars' })).toEqual([
      'ALARM_WEBHOOK_SECRET: ALARM_WEBHOOK_SECRET is set but ALARM_WEBHOOK_URL is not',
    ]);
    expect(configProblems({ SMTP_URL: 'http://mail.example.org' })).toContain(
      'SMTP_URL: SMTP_URL must be an smtp:// or smtps:// URL',
    );
    expect(configProblems({ SMTP_URL: 'smtp://mail.example.org:25' })).toEqual([
      'SMTP_URL: SMTP_URL is set but ALARM_EMAIL_TO (who receives alarms) is not',
    ]);
    expect(configProblems({ ALARM_EMAIL_TO: 'duty@example.org' })).toEqual([
      'ALARM_EMAIL_TO: ALARM_EMAIL_TO is set but SMTP_URL (how to send) is not',
    ]);
    expect(
      configProblems({ SMTP_URL: 'smtp://mail.example.org:25', ALARM_EMAIL_TO: 'duty@example.org, not-an-address' }),
    ).toEqual(['ALARM_EMAIL_TO: not-an-address is not an e-mail address (separate addresses by commas)']);
  });
});
