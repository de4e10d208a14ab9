import type { FastifyBaseLogger } from 'fastify';
import type { Alarm } from '../../../contract/alarms';
import type { Clock, Timer } from '../../lib/clock';
import type { DeliveryEvent } from './alarm-text';
import type { AlarmDeliveries } from './delivery';
import type { AlarmDeliveriesRepository } from './delivery-repository';
import { inhibitorOf } from './inhibition';
import type { AlarmRow } from './repository';
import { silences, type SilencesService } from './silences';

/**
 * Kinds whose alarm tells of something still going on that a person can act on; they are reminded of
 * while open and not acknowledged. The others tell how a Friday ended (partial, failed, missed, a
 * launch that failed, a recorder that died): told once, their story stays on the ledger, and a
 * reminder every few hours for weeks would only teach people to ignore the channel.
 */
const REMINDED_KINDS: ReadonlySet<string> = new Set([
  'stall',
  'unschedulable',
  'preflight',
  'audio_silent',
  'audio_missing',
  'picture_frozen',
  'picture_black',
]);

/**
 * Kinds listed in the console and on the Friday ledger but never sent: a recorder that died and was
 * started again either lost nothing (it takes what its playlist still lists) or left a hole, which
 * raises a stall while it lasts and the Friday's outcome at its end. A message for every death (the
 * simulated season's 5% of crashed recorders sent 4,700 for one partial Friday) would only teach
 * people to mute the channel.
 */
const CONSOLE_ONLY_KINDS: ReadonlySet<string> = new Set(['recorder_died']);

/** How often open alarms are looked over for a reminder, or for an announcement a silence or inhibition held. */
const SWEEP_EVERY_MS = 60_000;

export interface NotificationPolicyOptions {
  groupWindowMs: number;
  repeatIntervalMs: number;
}

export interface NotificationPolicyDeps extends NotificationPolicyOptions {
  clock: Clock;
  deliveries: Pick<AlarmDeliveries, 'deliver'>;
  deliveryRows: Pick<AlarmDeliveriesRepository, 'lastAnnounced'>;
  silences: Pick<SilencesService, 'active'>;
  /** The open alarms, with their cause keys (inhibition reads them). */
  openAlarms: () => Promise<AlarmRow[]>;
  toAlarm: (row: AlarmRow) => Alarm;
  log: FastifyBaseLogger;
}

/**
 * Decides which alarm changes become messages, as Alertmanager does for its receivers:
 * - group: alarms raised within the group window of the first one go out as one message (a Friday
 *   wave: "12 mosques failed to start between 11:20 and 11:40 UTC", with the list); resolutions too;
 * - hold: an alarm that an operator's silence covers, or that an open alarm explains (inhibition.ts),
 *   is not announced; it is still raised and listed. The sweep announces it once nothing holds it;
 * - repeat: an alarm still open a repeat interval after it was last announced is announced again;
 * - resolve once: a resolution is sent only for an alarm that was announced, and only once.
 * Only the server that made a change announces it; the sweep and the delivery rows' unique keys keep
 * servers sharing a database from announcing twice.
 */
export class NotificationPolicy {
  private readonly waves: Record<'raised' | 'resolved', Alarm[]> = { raised: [], resolved: [] };
  /**
   * Alarms of a window that has closed, open when it did, whose announcement is still queued; those
   * ended since. A busy server (its database slow, its queue long) announces them all the same: what
   * it tells does not depend on how long the telling took.
   */
  private readonly closedWindow = new Set<string>();
  private readonly endedAfterClose = new Set<string>();
  private readonly groupTimer: Timer;
  private readonly sweepTimer: Timer;
  /** Decisions run one after another: a resolution is judged after its raise was queued. */
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly deps: NotificationPolicyDeps) {
    this.groupTimer = deps.clock.timer();
    this.sweepTimer = deps.clock.timer();
  }

  /** Starts the sweep for reminders and for announcements that were held. */
  start(): void {
    this.armSweep();
  }

  /** Told of every raise and resolution (AlarmsService listener). */
  notice(alarm: Alarm, change: 'raised' | 'resolved'): void {
    if (this.closed) return;
    // An informational alarm (a planned stop) is one message, sent as it is raised: never grouped away, never resolved aloud.
    if (alarm.severity === 'info') {
      // Told even when it ended before its turn came (a server back within seconds): it was raised.
      if (change === 'raised') this.enqueue(() => this.announce([alarm], change, { evenIfEnded: true }));
      return;
    }
    if (this.deps.groupWindowMs <= 0) {
      this.enqueue(() => this.announce([alarm], change));
      return;
    }
    // Raised and cleared within one window: nothing to tell.
    const waiting = change === 'resolved' ? this.waves.raised.findIndex((raised) => raised.id === alarm.id) : -1;
    if (waiting >= 0) this.waves.raised.splice(waiting, 1);
    else this.waves[change].push(alarm);
    if (change === 'resolved' && this.closedWindow.has(alarm.id)) this.endedAfterClose.add(alarm.id);
    if (this.waves.raised.length + this.waves.resolved.length === 1)
      this.groupTimer.arm(this.deps.groupWindowMs, () => this.closeWindow());
  }

  /** Stops the timers and waits for decisions in progress (what waits in a window is dropped: the sweep after the next start announces the alarms still open). */
  async close(): Promise<void> {
    this.closed = true;
    this.groupTimer.disarm();
    this.sweepTimer.disarm();
    await this.queue;
  }

  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue
      .then(work)
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'could not send alarm notifications'));
  }

  /** The window ends when its time is up, whenever its announcement gets its turn in the queue. */
  private closeWindow(): void {
    const raised = this.waves.raised.splice(0);
    const resolved = this.waves.resolved.splice(0);
    for (const alarm of raised) this.closedWindow.add(alarm.id);
    this.enqueue(async () => {
      try {
        await this.announce(raised, 'raised');
        await this.announce(resolved, 'resolved');
      } finally {
        for (const alarm of raised) {
          this.closedWindow.delete(alarm.id);
          this.endedAfterClose.delete(alarm.id);
        }
      }
    });
  }

  /** Sends what is not held, as one message. */
  private async announce(
    alarms: Alarm[],
    change: 'raised' | 'resolved',
    { evenIfEnded = false }: { evenIfEnded?: boolean } = {},
  ): Promise<void> {
    if (alarms.length === 0) return;
    if (change === 'resolved') {
      const announced = await this.deps.deliveryRows.lastAnnounced(alarms.map((alarm) => alarm.id));
      await this.send(
        alarms.filter((alarm) => announced.has(alarm.id)),
        'resolved',
      );
      return;
    }
    const open = await this.deps.openAlarms();
    const stillOpen = new Set(open.map((row) => row.id));
    const endedSinceClose = alarms.filter((alarm) => !stillOpen.has(alarm.id) && this.endedAfterClose.has(alarm.id));
    const held = await this.holding(open, endedSinceClose);
    await this.send(
      alarms.filter(
        (alarm) =>
          (evenIfEnded || stillOpen.has(alarm.id) || this.endedAfterClose.has(alarm.id)) && !held.has(alarm.id),
      ),
      'raised',
    );
  }

  /**
   * The open alarms whose notifications are held: by a silence, or because another open alarm explains
   * them; and of `ended` (ended since their window closed), those a silence holds or never sent.
   */
  private async holding(open: AlarmRow[], ended: Alarm[] = []): Promise<Set<string>> {
    const active = await this.deps.silences.active();
    const heldByKindOrSilence = (alarm: Alarm) =>
      CONSOLE_ONLY_KINDS.has(alarm.kind) || active.some((silence) => silences(silence, alarm));
    const held = open.filter(
      (row) => heldByKindOrSilence(this.deps.toAlarm(row)) || inhibitorOf(row, open) !== undefined,
    );
    return new Set([...held, ...ended.filter(heldByKindOrSilence)].map((alarm) => alarm.id));
  }

  /**
   * Open alarms not held: announced if they never were (raised while held, or in a window lost to a
   * restart), reminded of if their last announcement is older than the repeat interval.
   */
  private async sweep(): Promise<void> {
    const now = this.deps.clock.now().getTime();
    // Alarms of a wave still in its window (here or on another server) are left to it.
    const open = await this.deps.openAlarms();
    const settled = open.filter((row) => Date.parse(row.raised_at) <= now - this.deps.groupWindowMs - SWEEP_EVERY_MS);
    if (settled.length === 0) return;
    const held = await this.holding(open);
    const candidates = settled.filter((row) => !held.has(row.id));
    const announced = await this.deps.deliveryRows.lastAnnounced(candidates.map((row) => row.id));
    const cutoff = new Date(now - this.deps.repeatIntervalMs).toISOString();
    const never = candidates.filter((row) => !announced.has(row.id));
    const due = candidates.filter(
      (row) => REMINDED_KINDS.has(row.kind) && !row.acknowledged_at && (announced.get(row.id) ?? cutoff) < cutoff,
    );
    await this.send(never.map(this.deps.toAlarm), 'raised');
    await this.send(due.map(this.deps.toAlarm), 'repeated', cutoff);
  }

  private async send(alarms: Alarm[], event: DeliveryEvent, repeatCutoff?: string): Promise<void> {
    if (alarms.length > 0) await this.deps.deliveries.deliver(alarms, event, repeatCutoff);
  }

  private armSweep(): void {
    if (this.closed) return;
    this.sweepTimer.arm(Math.min(SWEEP_EVERY_MS, this.deps.repeatIntervalMs), () =>
      this.enqueue(async () => {
        try {
          await this.sweep();
        } finally {
          this.armSweep();
        }
      }),
    );
  }
}
