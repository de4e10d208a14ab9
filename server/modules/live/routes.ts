import type { FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { clientMessageSchema, LIVE_AUTH_TIMEOUT_MS, LIVE_CLOSE_UNAUTHORIZED } from '../../../contract/live';
import type { AppInstance } from '../../lib/fastify';
import type { Clock } from '../../lib/clock';
import type { SessionService } from '../auth/session-service';
import { toUser } from '../users/repository';
import type { LiveClient, LiveHub } from './hub';

/** Messages a client may send per second before it is treated as a flood and dropped. */
const MAX_MESSAGES_PER_SECOND = 20;

interface LiveDeps {
  hub: LiveHub;
  sessions: SessionService;
  clock: Clock;
  allowedOrigins: string[];
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

function parse(raw: RawData): unknown {
  try {
    return JSON.parse(raw.toString());
  } catch {
    return undefined;
  }
}

/**
 * `/ws`: the server sends nothing until the first message, `client_connected` with the session token,
 * proves a live session (DESIGN.md, "Live feed").
 */
export function registerLiveRoutes(app: AppInstance, deps: LiveDeps): void {
  const { hub, sessions, clock } = deps;
  sessions.onRevoked((ids) => hub.disconnectSessions(ids));

  app.get('/ws', { websocket: true, config: { access: 'public' } }, (socket: WebSocket, request) => {
    if (!originAllowed(request, deps.allowedOrigins)) {
      socket.close(LIVE_CLOSE_UNAUTHORIZED, 'Origin not allowed');
      return;
    }
    let client: LiveClient | undefined;
    let windowStart = Date.now();
    let messagesInWindow = 0;
    const authTimer = setTimeout(() => socket.close(LIVE_CLOSE_UNAUTHORIZED, 'Authentication timed out'), LIVE_AUTH_TIMEOUT_MS);

    socket.on('close', () => {
      clearTimeout(authTimer);
      if (client) hub.remove(client);
    });

    socket.on('message', (raw) => {
      const now = Date.now();
      if (now - windowStart >= 1000) {
        windowStart = now;
        messagesInWindow = 0;
      }
      if (++messagesInWindow > MAX_MESSAGES_PER_SECOND) {
        socket.close(LIVE_CLOSE_UNAUTHORIZED, 'Too many messages');
        return;
      }
      const parsed = clientMessageSchema.safeParse(parse(raw));
      if (!client) {
        void authenticate(parsed.success ? parsed.data : undefined);
        return;
      }
      if (!parsed.success) {
        hub.send(client, { type: 'error', message: 'Unknown or malformed message' });
        return;
      }
      const message = parsed.data;
      if (message.action === 'ping') {
        hub.send(client, { type: 'pong', timestamp: clock.now().toISOString() });
        return;
      }
      if (message.action === 'client_connected') return;
      if (message.action === 'subscribe_logs') client.logSubscriptions.add(message.instance_id);
      if (message.action === 'unsubscribe_logs') client.logSubscriptions.delete(message.instance_id);
      const handler = hub.handlerFor(message.action);
      const current = client;
      if (handler) {
        Promise.resolve(handler(current, message as never)).catch((error: unknown) => {
          request.log.warn({ err: error }, 'live action failed');
          hub.send(current, { type: 'error', message: error instanceof Error ? error.message : 'Request failed' });
        });
      }
    });

    async function authenticate(message: { action: string; token?: string } | undefined): Promise<void> {
      clearTimeout(authTimer);
      if (message?.action !== 'client_connected' || !message.token) {
        socket.close(LIVE_CLOSE_UNAUTHORIZED, 'Authentication required');
        return;
      }
      const session = await sessions.authenticate(message.token).catch(() => undefined);
      if (!session) {
        socket.close(LIVE_CLOSE_UNAUTHORIZED, 'Session expired or invalid');
        return;
      }
      if (socket.readyState !== socket.OPEN) return;
      client = { socket, sessionId: session.sessionId, userId: session.user.id, logSubscriptions: new Set() };
      hub.add(client);
      hub.send(client, { type: 'welcome', data: { user: toUser(session.user), server_time: clock.now().toISOString() } });
      try {
        hub.send(client, { type: 'initial_data', data: await hub.loadInitialData() });
      } catch (error) {
        request.log.error({ err: error }, 'initial live data failed');
        hub.send(client, { type: 'error', message: 'Could not load the current fleet state' });
      }
    }
  });
}
