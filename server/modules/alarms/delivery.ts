import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Alarm, AlarmDelivery } from '../../../contract/alarms';
import type { Clock } from '../../lib/clock';
import type { DeliveryEvent } from './alarm-text';
import type { AlarmDeliveriesRepository, DeliveryRow } from './delivery-repository';

/** One way out of the console: throws when the receiver did not take the message. */
export interface DeliveryChannel {
  name: AlarmDelivery['channel'];
  send(alarm: Alarm, event: DeliveryEvent): Promise<void>;
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
 * Delivers each raised or resolved alarm to every configured channel, retrying with back-off, and
 * keeps each delivery's state in `alarm_deliveries` so the console shows what reached people.
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

  /** Queues one delivery per channel and makes the first attempt at once. */
  async deliver(alarm: Alarm, event: DeliveryEvent): Promise<void> {
    const created_at = this.deps.clock.now().toISOString();
    for (const channel of this.deps.channels) {
      const row = { id: `dlv-${crypto.randomBytes(8).toString('hex')}`, alarm_id: alarm.id, channel: channel.name, event, state: 'pending' as const, last_attempt_at: null, next_attempt_at: null, last_error: null, delivered_at: null, created_at };
      if (await this.deps.repository.insert(row)) this.track(this.attempt(row.id, channel, alarm, event, 0));
    }
  }

  /** After a restart: deliveries that were pending or waiting for a retry carry on where they were. */
  async resume(): Promise<void> {
    for (const row of await this.deps.repository.unfinished()) {
      const channel = this.deps.channels.find((c) => c.name === row.channel);
      const alarm = await this.deps.findAlarm(row.alarm_id);
      if (!channel || !alarm) {
        await this.deps.repository.update(row.id, { state: 'failed', next_attempt_at: null, last_error: channel ? 'The alarm no longer exists' : `The ${row.channel} channel is no longer configured` });
        continue;
      }
      this.schedule(row, channel, alarm, row.next_attempt_at ? Date.parse(row.next_attempt_at) - this.deps.clock.now().getTime() : 0);
    }
  }

  /** Stops retries and waits for attempts in progress (the database is about to close). */
  async close(): Promise<void> {
    this.closed = true;
    for (const cancel of this.cancels) cancel();
    this.cancels.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(row: Pick<DeliveryRow, 'id' | 'event' | 'attempts'>, channel: DeliveryChannel, alarm: Alarm, ms: number): void {
    if (this.closed) return;
    const cancel = this.timer(() => {
      this.cancels.delete(cancel);
      if (!this.closed) this.track(this.attempt(row.id, channel, alarm, row.event, row.attempts));
    }, Math.max(0, ms));
    this.cancels.add(cancel);
  }

  private async attempt(id: string, channel: DeliveryChannel, alarm: Alarm, event: DeliveryEvent, attemptsBefore: number): Promise<void> {
    const { repository, clock, log } = this.deps;
    const attempts = attemptsBefore + 1;
    const startedAt = clock.now().toISOString();
    try {
      await channel.send(alarm, event);
      await repository.update(id, { state: 'delivered', attempts, last_attempt_at: startedAt, delivered_at: clock.now().toISOString(), next_attempt_at: null, last_error: null });
    } catch (error) {
      const delay = this.delays[attemptsBefore];
      const last_error = errorText(error);
      if (delay === undefined) {
        log.error({ alarm: alarm.id, channel: channel.name, attempts, reason: last_error }, 'alarm delivery failed');
        await repository.update(id, { state: 'failed', attempts, last_attempt_at: startedAt, next_attempt_at: null, last_error });
        return;
      }
      log.warn({ alarm: alarm.id, channel: channel.name, attempts, retryInMs: delay, reason: last_error }, 'alarm delivery attempt failed');
      const next_attempt_at = new Date(clock.now().getTime() + delay).toISOString();
      await repository.update(id, { state: 'retrying', attempts, last_attempt_at: startedAt, next_attempt_at, last_error });
      // After close() this schedules nothing: the next start resumes it from the stored row.
      this.schedule({ id, event, attempts }, channel, alarm, delay);
    }
  }

  private track(work: Promise<void>): void {
    const guarded = work.catch((error: unknown) => this.deps.log.error({ err: error }, 'alarm delivery bookkeeping failed'));
    this.inFlight.add(guarded);
    void guarded.finally(() => this.inFlight.delete(guarded));
  }
}
