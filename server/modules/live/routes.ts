import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { LIVE_CLOSE_UNAUTHORIZED } from '../../../contract/live';
import type { Clock } from '../../lib/clock';
import type { AppInstance } from '../../lib/fastify';
import { errorBody } from '../../plugins/errors';
import type { SessionService } from '../auth';
import { serveConnection } from './connection';
import type { LiveHub } from './hub';
import type { LiveSocketSlots } from './socket-slots';

interface LiveDeps {
  hub: LiveHub;
  slots: LiveSocketSlots;
  sessions: SessionService;
  clock: Clock;
  allowedOrigins: string[];
  /** How often open sockets' sessions are re-checked (idle for 24 h, token expired, ended by another server). */
  sessionCheckMs: number;
}

function originAllowed(request: FastifyRequest, allowed: string[]): boolean {
  const origin = request.headers.origin;
  if (!origin) return true; // not a browser: nothing to forge
  try {
    return new URL(origin).host === request.headers.host || allowed.includes(origin);
  } catch {
    return false;
  }
}

/** Closes (1008) every socket whose session has ended in a way no revocation here announced. */
async function closeEndedSessions(hub: LiveHub, sessions: SessionService): Promise<void> {
  const verdicts = new Map<string, Promise<boolean>>();
  for (const client of hub.connected()) {
    let live = verdicts.get(client.token);
    if (!live) verdicts.set(client.token, (live = sessions.isLive(client.token)));
    if (!(await live)) client.socket.close(LIVE_CLOSE_UNAUTHORIZED, 'Session ended');
  }
}

/** `/ws`, the live feed (docs/architecture.md, "Live feed"); the protocol of one socket is in connection.ts. */
export function registerLiveRoutes(app: AppInstance, deps: LiveDeps): void {
  const { hub, sessions, clock, slots } = deps;
  const timer = setInterval(
    () =>
      void closeEndedSessions(hub, sessions).catch((error: unknown) =>
        app.log.warn({ err: error }, 'live session check failed'),
      ),
    deps.sessionCheckMs,
  );
  timer.unref();
  app.addHook('preClose', async () => clearInterval(timer));
  // Slots left by servers that died with their sockets; this server's own go when it closes.
  app.addHook('onReady', () => slots.forgetDead());
  // A server closing because its database is gone cannot give its slots back: that is logged, and the
  // close goes on (the next server to start forgets the slots of servers no longer alive).
  app.addHook('preClose', () =>
    slots.releaseAll().catch((error: unknown) => app.log.warn({ err: error }, 'live socket slots not released')),
  );

  app.route({
    method: 'GET',
    url: '/ws',
    config: { access: 'public' },
    // A plain HTTP request (no upgrade) gets an answer in the API's error shape, not an empty 404.
    handler: (_request, reply) =>
      reply
        .code(426)
        .header('upgrade', 'websocket')
        .send(errorBody('The live feed only accepts websocket connections')),
    wsHandler: (socket: WebSocket, request) => {
      if (!originAllowed(request, deps.allowedOrigins)) {
        socket.close(LIVE_CLOSE_UNAUTHORIZED, 'Origin not allowed');
        return;
      }
      serveConnection(socket, { hub, sessions, clock, slots, log: request.log });
    },
  });
}
