import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { ServerMessage } from '../../../contract/live';
import { LIVE_EVENTS_CHANNEL, type EventAnnouncement, type LiveEventLog, type StoredEvent } from './event-log';
import { withEventId } from './hub';

/** Waits before listening again after the connection was lost, doubling up to the last. */
const RECONNECT_DELAYS_MS = [500, 1_000, 2_000, 5_000];
/** Event ids remembered as relayed, so one heard twice (announced, then read back after a reconnect) is sent once. */
const REMEMBERED_IDS = 4096;
/** Events read back at most after a reconnect; more were missed than consoles would want one by one. */
const CATCH_UP_LIMIT = 1000;

export interface FeedListenerDeps {
  databaseUrl: string;
  events: LiveEventLog;
  serverId: string;
  relay: (message: ServerMessage) => void;
  logger: FastifyBaseLogger;
}

/**
 * LISTENs on a PostgreSQL connection of its own for the other servers' events and relays each once,
 * in the order announced (an event announced by id alone is read from the table first). After the
 * connection is lost it listens again and reads back what other servers stored meanwhile.
 */
export class FeedListener {
  private client: pg.Client | undefined;
  /** The newest event id heard of (any server's): a reconnect reads back what came after it. */
  private newest = 0;
  private readonly relayed = new Set<number>();
  private work: Promise<void> = Promise.resolve();
  private reconnectTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private closed = false;

  constructor(private readonly deps: FeedListenerDeps) {}

  async start(): Promise<void> {
    this.newest = (await this.deps.events.bounds()).newest;
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
    await this.work;
  }

  private async connect(): Promise<void> {
    const { default: pgModule } = await import('pg');
    const client = new pgModule.Client({ connectionString: this.deps.databaseUrl, connectionTimeoutMillis: 5000 });
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      client.end().catch(() => undefined);
      if (!this.closed)
        this.deps.logger.warn({ err: error }, 'the live feed stopped hearing other servers; listening again');
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (notification) => {
      if (notification.channel !== LIVE_EVENTS_CHANNEL || !notification.payload) return;
      const payload = notification.payload;
      this.enqueue(() => this.heard(payload));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${LIVE_EVENTS_CHANNEL}`);
    } catch (error) {
      client.end().catch(() => undefined);
      if (this.closed) return;
      if (this.failures === 0)
        this.deps.logger.warn({ err: error }, 'the live feed could not listen for other servers; trying again');
      this.scheduleReconnect();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    if (this.failures > 0) this.deps.logger.info('the live feed hears other servers again');
    this.failures = 0;
    // What other servers stored while this one was not listening (nothing on the first connect).
    const since = this.newest;
    this.enqueue(() => this.catchUp(since));
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(this.failures, RECONNECT_DELAYS_MS.length - 1)];
    this.failures++;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
    this.reconnectTimer.unref();
  }

  private enqueue(task: () => Promise<void>): void {
    this.work = this.work
      .then(task)
      .catch((error: unknown) =>
        this.deps.logger.warn({ err: error }, 'a live event of another server could not be relayed'),
      );
  }

  private async heard(payload: string): Promise<void> {
    const announcement = JSON.parse(payload) as EventAnnouncement;
    this.newest = Math.max(this.newest, announcement.i);
    if (announcement.s === this.deps.serverId) return;
    if (announcement.m) {
      this.relayOnce(announcement.i, announcement.m);
      return;
    }
    const stored = await this.deps.events.find(announcement.i);
    if (stored) this.relayStored(stored);
  }

  private async catchUp(since: number): Promise<void> {
    for (const stored of await this.deps.events.othersAfter(since, this.deps.serverId, CATCH_UP_LIMIT)) {
      this.newest = Math.max(this.newest, stored.id);
      this.relayStored(stored);
    }
  }

  private relayStored(stored: StoredEvent): void {
    this.relayOnce(stored.id, JSON.parse(stored.payload) as ServerMessage);
  }

  private relayOnce(id: number, message: ServerMessage): void {
    if (this.relayed.has(id)) return;
    this.relayed.add(id);
    if (this.relayed.size > REMEMBERED_IDS) this.relayed.delete(this.relayed.values().next().value as number);
    this.deps.relay(withEventId(message, id));
  }
}
