import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Alarm, AlarmDelivery } from '../../../contract/alarms';
import type { Clock, Timer } from '../../lib/clock';
import { isDeadHereClaimant, newClaimantId } from '../scheduler';
import type { DeliveryEvent, Notification } from './alarm-text';
import type { AlarmDeliveriesRepository, OwedMessage } from './delivery-repository';

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
/**
 * How long a server's claim on a message lasts unless renewed: a server that died holding it is
 * relieved of it this long after its last renewal (one on this host at once). Longer than any send.
 */
export const DELIVERY_CLAIM_MS = 20_000;
/** How often claims are renewed and messages owed by dead servers looked for. */
export const DELIVERY_SWEEP_MS = 5_000;

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
  /** How often claims are renewed and lapsed ones taken over (default DELIVERY_SWEEP_MS), on the clock's timer. */
  sweepMs?: number;
}

const messageKey = (notificationId: string, channel: string) => `${notificationId} ${channel}`;

/**
 * Delivers the notifications the policy decides on (notification-policy.ts) to every configured
 * channel, retrying with back-off, and keeps each alarm's delivery state in `alarm_deliveries` so the
 * console shows what reached people.
 *
 * Servers sharing a database post each message once: a message is sent only by the server that holds
 * its claim (`claimed_by`, a lease renewed every sweep and re-taken before each attempt). A server that
 * stops lets go of its claims; one that dies loses them when they lapse, and the next sweep of any
 * server takes the message over where it was.
 */
export class AlarmDeliveries {
  /** This server's name on its claims: `host/pid/nonce`, so a restart on the same host sees a dead holder at once. */
  readonly holder = newClaimantId();
  private readonly timer: RetryTimer;
  private readonly delays: number[];
  private readonly cancels = new Set<() => void>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Messages this server claimed and has an attempt scheduled or running for. */
  private readonly owned = new Set<string>();
  private readonly sweepTimer: Timer;
  private sweeping: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly deps: AlarmDeliveryDeps) {
    this.timer = deps.timer ?? realTimer;
    this.delays = deps.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.sweepTimer = deps.clock.timer();
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
    const claim_until = this.claimUntil();
    for (const channel of this.deps.channels) {
      const queued: Alarm[] = [];
      // Marked before its rows exist: a sweep running meanwhile must not take this server's new claim for one to carry on.
      const key = messageKey(notification_id, channel.name);
      this.owned.add(key);
      try {
        for (const alarm of alarms) {
          const row = {
            id: `dlv-${crypto.randomBytes(8).toString('hex')}`,
            notification_id,
            alarm_id: alarm.id,
            channel: channel.name,
            event,
            state: 'pending' as const,
            last_attempt_at: null,
            next_attempt_at: null,
            last_error: null,
            delivered_at: null,
            created_at,
            claimed_by: this.holder,
            claim_until,
          };
          if (await this.deps.repository.insert(row, repeatCutoff)) queued.push(alarm);
        }
      } catch (error) {
        // What was queued stays claimed by this server: the next sweep carries it on.
        this.owned.delete(key);
        throw error;
      }
      if (queued.length === 0) this.owned.delete(key);
      else this.run(channel, { id: notification_id, event, alarms: queued }, 0);
    }
  }

  /** At start: takes over what is owed and not held by a live server, then sweeps every `sweepMs`. */
  async resume(): Promise<void> {
    await this.sweep();
    this.armSweep();
  }

  /**
   * Renews this server's claims, and takes over each message owed whose claim lapsed (or whose holder
   * was a process on this host that is gone), carrying on where it was: its retry at the time it was due.
   */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce().finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  private async sweepOnce(): Promise<void> {
    const { repository, clock } = this.deps;
    await repository.renewClaims(this.holder, this.claimUntil());
    const now = clock.now().toISOString();
    for (const message of await repository.owed()) {
      if (this.closed) return;
      const from = this.takeable(message, now);
      if (from === false || this.owned.has(messageKey(message.notification_id, message.channel))) continue;
      if (
        await repository.claimMessage(message.notification_id, message.channel, {
          holder: this.holder,
          now,
          until: this.claimUntil(),
          from,
        })
      ) {
        if (message.claimed_by && message.claimed_by !== this.holder)
          this.deps.log.warn(
            { notification: message.notification_id, channel: message.channel, from: message.claimed_by },
            'took over an alarm delivery whose server stopped renewing it',
          );
        await this.carryOn(message);
      }
    }
  }

  /** False when another live server holds the message; else the holder it may be taken from (undefined: none). */
  private takeable(message: OwedMessage, now: string): string | undefined | false {
    // Its own claim without an attempt here: one whose bookkeeping failed (the database was away) carries on.
    if (message.claimed_by === null || message.claimed_by === this.holder) return undefined;
    if ((message.claim_until !== null && message.claim_until < now) || isDeadHereClaimant(message.claimed_by))
      return message.claimed_by;
    return false;
  }

  /** Schedules a claimed message's next attempt (at once when it was pending). */
  private async carryOn(message: OwedMessage): Promise<void> {
    const rows = await this.deps.repository.owedRows(message.notification_id, message.channel);
    const [first] = rows;
    if (!first) return;
    const channel = this.deps.channels.find((c) => c.name === first.channel);
    const alarms = (await Promise.all(rows.map((row) => this.deps.findAlarm(row.alarm_id)))).filter(
      (alarm) => alarm !== undefined,
    );
    if (!channel || alarms.length === 0) {
      await this.deps.repository.updateMessage(first.notification_id, first.channel, {
        state: 'failed',
        next_attempt_at: null,
        last_error: channel ? 'The alarm no longer exists' : `The ${first.channel} channel is no longer configured`,
        claimed_by: null,
        claim_until: null,
      });
      return;
    }
    this.owned.add(messageKey(first.notification_id, first.channel));
    const notification = { id: first.notification_id, event: first.event, alarms };
    this.schedule(
      channel,
      notification,
      first.attempts,
      first.next_attempt_at ? Date.parse(first.next_attempt_at) - this.deps.clock.now().getTime() : 0,
    );
  }

  /** Stops retries and the sweep, waits for attempts in progress, and lets go of this server's claims. */
  async close(): Promise<void> {
    this.closed = true;
    this.sweepTimer.disarm();
    for (const cancel of this.cancels) cancel();
    this.cancels.clear();
    await this.sweeping?.catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    await this.deps.repository
      .releaseClaims(this.holder)
      .catch((error: unknown) =>
        this.deps.log.warn({ err: error }, 'could not let go of alarm delivery claims; they lapse by themselves'),
      );
  }

  private armSweep(): void {
    if (this.closed) return;
    this.sweepTimer.arm(this.deps.sweepMs ?? DELIVERY_SWEEP_MS, () => {
      void this.sweep()
        .catch((error: unknown) => this.deps.log.warn({ err: error }, 'alarm delivery sweep failed'))
        .finally(() => this.armSweep());
    });
  }

  private claimUntil(): string {
    return new Date(this.deps.clock.now().getTime() + DELIVERY_CLAIM_MS).toISOString();
  }

  private schedule(channel: DeliveryChannel, notification: Notification, attempts: number, ms: number): void {
    if (this.closed) return;
    const cancel = this.timer(
      () => {
        this.cancels.delete(cancel);
        if (!this.closed) this.run(channel, notification, attempts);
      },
      Math.max(0, ms),
    );
    this.cancels.add(cancel);
  }

  /** One attempt; when its bookkeeping fails the message is no longer this server's to schedule, and the next sweep carries it on. */
  private run(channel: DeliveryChannel, notification: Notification, attemptsBefore: number): void {
    this.track(
      this.attempt(channel, notification, attemptsBefore).catch((error: unknown) => {
        this.owned.delete(messageKey(notification.id, channel.name));
        throw error;
      }),
    );
  }

  private async attempt(channel: DeliveryChannel, notification: Notification, attemptsBefore: number): Promise<void> {
    const { repository, clock, log } = this.deps;
    const key = messageKey(notification.id, channel.name);
    const now = clock.now().toISOString();
    // Re-taken before each attempt: a server that lost its claim (its renewals failed and another took
    // the message over) must not post it a second time.
    if (
      !(await repository.claimMessage(notification.id, channel.name, {
        holder: this.holder,
        now,
        until: this.claimUntil(),
      }))
    ) {
      this.owned.delete(key);
      return;
    }
    const attempts = attemptsBefore + 1;
    const startedAt = now;
    const update = (values: Parameters<AlarmDeliveriesRepository['updateMessage']>[2]) =>
      repository.updateMessage(notification.id, channel.name, values);
    // Let go of only once the row says so: a sweep in between found it still owed and claimable by this
    // server, and posted it a second time (a stall's `raised` came twice on a busy PostgreSQL).
    const settle = (values: Parameters<AlarmDeliveriesRepository['updateMessage']>[2]) =>
      update({ ...values, claimed_by: null, claim_until: null }).finally(() => this.owned.delete(key));
    const about = {
      notification: notification.id,
      alarms: notification.alarms.map((alarm) => alarm.id),
      channel: channel.name,
      attempts,
    };
    try {
      await channel.send(notification);
      await settle({
        state: 'delivered',
        attempts,
        last_attempt_at: startedAt,
        delivered_at: clock.now().toISOString(),
        next_attempt_at: null,
        last_error: null,
      });
    } catch (error) {
      const delay = this.delays[attemptsBefore];
      const last_error = errorText(error);
      if (delay === undefined) {
        log.error({ ...about, reason: last_error }, 'alarm delivery failed');
        await settle({ state: 'failed', attempts, last_attempt_at: startedAt, next_attempt_at: null, last_error });
        return;
      }
      log.warn({ ...about, retryInMs: delay, reason: last_error }, 'alarm delivery attempt failed');
      const next_attempt_at = new Date(clock.now().getTime() + delay).toISOString();
      await update({ state: 'retrying', attempts, last_attempt_at: startedAt, next_attempt_at, last_error });
      // After close() this schedules nothing: close() lets go of the claim, and another server or the next start carries on.
      this.schedule(channel, notification, attempts, delay);
    }
  }

  private track(work: Promise<void>): void {
    const guarded = work.catch((error: unknown) =>
      this.deps.log.error({ err: error }, 'alarm delivery bookkeeping failed'),
    );
    this.inFlight.add(guarded);
    void guarded.finally(() => this.inFlight.delete(guarded));
  }
}
