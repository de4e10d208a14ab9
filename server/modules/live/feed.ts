import type { FastifyBaseLogger } from 'fastify';
import type { ServerMessage } from '../../../contract/live';
import type { Dialect } from '../../db';
import type { Clock, Timer } from '../../lib/clock';
import type { LiveEventLog } from './event-log';
import { FeedListener } from './feed-listener';
import { withEventId, type EventSink } from './hub';

/** How long events are kept for consoles that come back; one that was away longer is told to refetch. */
export const LIVE_EVENT_RETENTION_MS = 15 * 60_000;
const PRUNE_EVERY_MS = 60_000;
/**
 * Ids just below the one a console names are replayed too (it drops those it has): an event's id is
 * taken when it is stored, and one stored a moment before a newer event may be heard after it.
 */
export const REPLAY_OVERLAP = 64;
/** A console that missed more than this many events refetches rather than replaying them one by one. */
export const MAX_REPLAY = 500;

export interface LiveFeedDeps {
  log: LiveEventLog;
  /** Hands another server's event to this server's consoles (the hub's `relay`). */
  relay: (message: ServerMessage) => void;
  clock: Clock;
  dialect: Dialect;
  /** PostgreSQL's URL: the feed listens on a connection of its own. */
  databaseUrl: string | undefined;
  serverId: string;
  logger: FastifyBaseLogger;
}

/**
 * The live feed's events in the database: each is numbered and kept a while, so a console that comes
 * back (to this server or another) replays what it missed. On PostgreSQL every server also hears the
 * others' events (LISTEN/NOTIFY) and relays them to its own consoles, once each; its own it has sent
 * already. On SQLite there is one server and nothing to relay.
 */
export class LiveFeed implements EventSink {
  readonly crossServer: boolean;
  private readonly listener: FeedListener | undefined;
  private readonly pruneTimer: Timer;
  private lastRecordError: string | undefined;
  private closed = false;

  constructor(private readonly deps: LiveFeedDeps) {
    this.crossServer = deps.dialect === 'postgres' && deps.databaseUrl !== undefined;
    this.listener =
      this.crossServer && deps.databaseUrl
        ? new FeedListener({
            databaseUrl: deps.databaseUrl,
            events: deps.log,
            serverId: deps.serverId,
            relay: deps.relay,
            logger: deps.logger,
          })
        : undefined;
    this.pruneTimer = deps.clock.timer();
  }

  async start(): Promise<void> {
    await this.listener?.start();
    this.armPrune();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.pruneTimer.disarm();
    await this.listener?.close();
  }

  async record(message: ServerMessage): Promise<number | undefined> {
    try {
      const id = await this.deps.log.append(this.deps.serverId, message, this.deps.clock.now().toISOString());
      this.lastRecordError = undefined;
      return id;
    } catch (error) {
      // Said once per outage: the event still reaches this server's consoles, but not the others' nor a replay.
      const text = error instanceof Error ? error.message : String(error);
      if (text !== this.lastRecordError)
        this.deps.logger.warn(
          { err: error, type: message.type },
          'a live event could not be stored: consoles of other servers miss it',
        );
      this.lastRecordError = text;
      return undefined;
    }
  }

  async head(): Promise<number> {
    return (await this.deps.log.bounds()).newest;
  }

  async replay(afterId: number): Promise<ServerMessage[]> {
    const refetch = (reason: string): ServerMessage[] => [{ type: 'refetch', data: { reason } }];
    try {
      const { oldest } = await this.deps.log.bounds();
      if (afterId > 0 && (oldest === undefined || afterId + 1 < oldest))
        return refetch('Events you missed are no longer kept');
      const rows = await this.deps.log.replayable(Math.max(0, afterId - REPLAY_OVERLAP), MAX_REPLAY + 1);
      if (rows.length > MAX_REPLAY) return refetch('Too many events were missed to replay');
      return rows.map((row) => withEventId(JSON.parse(row.payload) as ServerMessage, row.id));
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'live events could not be replayed');
      return refetch('The events you missed could not be read');
    }
  }

  private armPrune(): void {
    if (this.closed) return;
    this.pruneTimer.arm(PRUNE_EVERY_MS, () => {
      const before = new Date(this.deps.clock.now().getTime() - LIVE_EVENT_RETENTION_MS).toISOString();
      void this.deps.log
        .pruneBefore(before)
        .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'old live events could not be removed'))
        .finally(() => this.armPrune());
    });
  }
}
