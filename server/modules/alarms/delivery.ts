import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Alarm, AlarmDelivery } from '../../../contract/alarms';
import type { Clock } from '../../lib/clock';
import type { DeliveryEvent, Notification } from './alarm-text';
import type { AlarmDeliveriesRepository, DeliveryRow } from './delivery-repository';

/** One way out of the console: throws when the receiver did not take the message. */
export interface DeliveryChannel {
  name: AlarmDelivery['channel'];
  send(notification: Notification): Promise<void>;
}

/** Runs `run` after `ms`; returns what cancels it. Tests pass short delays or their own timer. */
export type RetryTimer = (run: () => void, ms: number) => () => void;

const realTimer: RetryTimer = (run, ms) => {
  const handle = setTimeout(run, ms);
  handle.unref();
  return () => clearTimeout(handle);
};

/** Waits before each retry: 6 attempts over about 13 minutes, so a receiver's short outage loses nothing. */
export const DEFAULT_RETRY_DELAYS_MS = [2_000, 10_000, 30_000, 120_000, 600_000];

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

export interface AlarmDeliveryDeps {
  repository: AlarmDeliveriesRepository;
  channels: DeliveryChannel[];
  clock: Clock;
  /** The alarm as it is now (a delivery resumed after a restart announces the stored alarm). */
  findAlarm: (id: string) => Promise<Alarm | undefined>;
  log: FastifyBaseLogger;
  timer?: RetryTimer;
  retryDelaysMs?: number[];
}

/**
 * Delivers the notifications the policy decides on (notification-policy.ts) to every configured
 * channel, retrying with back-off, and keeps each alarm's delivery state in `alarm_deliveries` so the
 * console shows what reached people.
 */
export class AlarmDeliveries {
  private readonly timer: RetryTimer;
  private readonly delays: number[];
  private readonly cancels = new Set<() => void>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly deps: AlarmDeliveryDeps) {
    this.timer = deps.timer ?? realTimer;
    this.delays = deps.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  }

  get enabled(): boolean {
    return this.deps.channels.length > 0;
  }

  /**
   * Sends these alarms' change as one message per channel, first attempt at once. Each alarm gets its
   * delivery row, all naming the message; an alarm whose change a server queued already (a `raised` or
   * `resolved` is sent once) or reminded of since `repeatCutoff` (a `repeated`) is left out.
   */
  async deliver(alarms: Alarm[], event: DeliveryEvent, repeatCutoff?: string): Promise<void> {
    const created_at = this.deps.clock.now().toISOString();
    const notification_id = `ntf-${crypto.randomBytes(8).toString('hex')}`;
    for (const channel of this.deps.channels) {
      const queued: Alarm[] = [];
      for (const alarm of alarms) {
        const row = { id: `dlv-${crypto.randomBytes(8).toString('hex')}`, notification_id, alarm_id: alarm.id, channel: channel.name, event, state: 'pending' as const, last_attempt_at: null, next_attempt_at: null, last_error: null, delivered_at: null, created_at };
        if (await this.deps.repository.insert(row, repeatCutoff)) queued.push(alarm);
      }
      if (queued.length > 0) this.track(this.attempt(channel, { id: notification_id, event, alarms: queued }, 0));
    }
  }

  /** After a restart: messages that were pending or waiting for a retry carry on where they were, whole. */
  async resume(): Promise<void> {
    const byMessage = new Map<string, DeliveryRow[]>();
    for (const row of await this.deps.repository.unfinished()) {
      const key = `${row.notification_id} ${row.channel}`;
      byMessage.set(key, [...(byMessage.get(key) ?? []), row]);
    }
    for (const rows of byMessage.values()) {
      const [first] = rows;
      const channel = this.deps.channels.find((c) => c.name === first.channel);
      const alarms = (await Promise.all(rows.map((row) => this.deps.findAlarm(row.alarm_id)))).filter((alarm) => alarm !== undefined);
      if (!channel || alarms.length === 0) {
        await this.deps.repository.updateMessage(first.notification_id, first.channel, { state: 'failed', next_attempt_at: null, last_error: channel ? 'The alarm no longer exists' : `The ${first.channel} channel is no longer configured` });
        continue;
      }
      const notification = { id: first.notification_id, event: first.event, alarms };
      this.schedule(channel, notification, first.attempts, first.next_attempt_at ? Date.parse(first.next_attempt_at) - this.deps.clock.now().getTime() : 0);
    }
  }

  /** Stops retries and waits for attempts in progress (the database is about to close). */
  async close(): Promise<void> {
    this.closed = true;
    for (const cancel of this.cancels) cancel();
    this.cancels.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(channel: DeliveryChannel, notification: Notification, attempts: number, ms: number): void {
    if (this.closed) return;
    const cancel = this.timer(() => {
      this.cancels.delete(cancel);
      if (!this.closed) this.track(this.attempt(channel, notification, attempts));
    }, Math.max(0, ms));
    this.cancels.add(cancel);
  }

  private async attempt(channel: DeliveryChannel, notification: Notification, attemptsBefore: number): Promise<void> {
    const { repository, clock, log } = this.deps;
    const attempts = attemptsBefore + 1;
    const startedAt = clock.now().toISOString();
    const update = (values: Parameters<AlarmDeliveriesRepository['updateMessage']>[2]) => repository.updateMessage(notification.id, channel.name, values);
    const about = { notification: notification.id, alarms: notification.alarms.map((alarm) => alarm.id), channel: channel.name, attempts };
    try {
      await channel.send(notification);
      await update({ state: 'delivered', attempts, last_attempt_at: startedAt, delivered_at: clock.now().toISOString(), next_attempt_at: null, last_error: null });
    } catch (error) {
      const delay = this.delays[attemptsBefore];
      const last_error = errorText(error);
      if (delay === undefined) {
        log.error({ ...about, reason: last_error }, 'alarm delivery failed');
        await update({ state: 'failed', attempts, last_attempt_at: startedAt, next_attempt_at: null, last_error });
        return;
      }
      log.warn({ ...about, retryInMs: delay, reason: last_error }, 'alarm delivery attempt failed');
      const next_attempt_at = new Date(clock.now().getTime() + delay).toISOString();
      await update({ state: 'retrying', attempts, last_attempt_at: startedAt, next_attempt_at, last_error });
      // After close() this schedules nothing: the next start resumes it from the stored rows.
      this.schedule(channel, notification, attempts, delay);
    }
  }

  private track(work: Promise<void>): void {
    const guarded = work.catch((error: unknown) => this.deps.log.error({ err: error }, 'alarm delivery bookkeeping failed'));
    this.inFlight.add(guarded);
    void guarded.finally(() => this.inFlight.delete(guarded));
  }
}
