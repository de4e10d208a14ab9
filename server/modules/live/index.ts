import fastifyWebsocket from '@fastify/websocket';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { EventBus } from '../../lib/events';
import type { ServerModule } from '../../lib/server-module';
import type { SessionService } from '../auth';
import { LIVE_SOCKET_HARD_LIMIT } from './connection';
import { LiveEventLog } from './event-log';
import { LiveFeed } from './feed';
import { LiveHub } from './hub';
import { registerLiveRoutes } from './routes';
import { LiveSocketSlots } from './socket-slots';

/** What other modules and the app use of the live feed; the rest stays inside the module. */
export { LiveHub, type LiveClient } from './hub';

/** How often the sessions of open live sockets are re-checked by default. */
const LIVE_SESSION_CHECK_MS = 30_000;

/**
 * The live feed: the hub every module publishes to, its events numbered and shared through the
 * database (feed.ts), `/ws`, and the mosque and account changes of the app's events told to consoles
 * (a revoked session's sockets are closed).
 */
export function createLiveModule(deps: {
  config: Pick<Config, 'databaseUrl' | 'allowedOrigins'>;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  events: EventBus;
  /** This server's id (its row in the servers table): the feed knows its own events by it. */
  serverId: string;
  sessions: SessionService;
  /** How often the sessions of open live sockets are re-checked (default 30 s). */
  liveSessionCheckMs?: number;
}): ServerModule<LiveHub> {
  const { db, clock, events } = deps;
  const feed = new LiveFeed({
    log: new LiveEventLog(db.kysely, db.dialect),
    // Called only once the feed runs, when the hub below exists.
    relay: (message) => hub.relay(message),
    clock,
    dialect: db.dialect,
    databaseUrl: deps.config.databaseUrl,
    serverId: deps.serverId,
    logger: deps.log,
  });
  const hub = new LiveHub(clock, feed);
  events.on('mosque_changed', (change) =>
    hub.publish({ type: 'mosque_update', data: { change: change.type, mosque_id: change.mosque_id } }),
  );
  // A revoked session's sockets close at once, not at the next session check.
  events.on('sessions_revoked', ({ sessionIds }) => hub.disconnectSessions(sessionIds));
  events.on('user_changed', (change) =>
    hub.publish({ type: 'user_update', data: { change: change.type, user_id: change.user_id } }),
  );
  return {
    service: hub,
    async register(app) {
      await app.register(fastifyWebsocket, { options: { maxPayload: LIVE_SOCKET_HARD_LIMIT } });
      app.addHook('preClose', () => hub.closeAll(1001, 'Server shutting down'));
      registerLiveRoutes(app, {
        hub,
        slots: new LiveSocketSlots(db.kysely, db.dialect, clock, deps.serverId),
        sessions: deps.sessions,
        clock,
        allowedOrigins: deps.config.allowedOrigins,
        sessionCheckMs: deps.liveSessionCheckMs ?? LIVE_SESSION_CHECK_MS,
      });
    },
    start: () => feed.start(),
    async close() {
      await hub.flushed();
      await feed.close();
    },
  };
}
