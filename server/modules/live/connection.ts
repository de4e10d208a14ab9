import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import {
  clientMessageSchema,
  LIVE_AUTH_TIMEOUT_MS,
  LIVE_CLOSE_TOO_BIG,
  LIVE_CLOSE_TRY_AGAIN,
  LIVE_CLOSE_UNAUTHORIZED,
  LIVE_MAX_FRAME_BYTES,
  LIVE_TOO_BIG_MESSAGE,
  type ClientMessage,
} from '../../../contract/live';
import type { Clock } from '../../lib/clock';
import { findUnsafeText } from '../../plugins/input-guard';
import type { SessionService } from '../auth';
import { toUser } from '../users';
import type { LiveClient, LiveHub } from './hub';
import type { LiveSocketSlots } from './socket-slots';

/** Messages a client may send per second before it is treated as a flood and dropped. */
export const MAX_MESSAGES_PER_SECOND = 20;
/** Live sockets one session may hold (a console per browser tab); more is a leak or an attack. */
export const MAX_SOCKETS_PER_SESSION = 10;

export interface ConnectionDeps {
  hub: LiveHub;
  /** The sockets of each session across the servers sharing the database (the cap). */
  slots: LiveSocketSlots;
  sessions: SessionService;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** Frames ws reads whole before handing them over; beyond this it closes with 1009 by itself. */
export const LIVE_SOCKET_HARD_LIMIT = 16 * LIVE_MAX_FRAME_BYTES;

function rawSize(raw: RawData): number {
  if (Array.isArray(raw)) return raw.reduce((sum, part) => sum + part.length, 0);
  return raw instanceof ArrayBuffer ? raw.byteLength : raw.length;
}

function parse(raw: RawData): ClientMessage | undefined {
  try {
    const data: unknown = JSON.parse(raw.toString());
    // Text the databases cannot hold (NUL, unpaired surrogates) is malformed here as on HTTP.
    if (findUnsafeText(data) !== undefined) return undefined;
    const parsed = clientMessageSchema.safeParse(data);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One console's socket: nothing is sent until its first message, `client_connected` with the session
 * token, proves a live session within LIVE_AUTH_TIMEOUT_MS. Messages that arrive while the token is
 * being checked wait for the answer rather than being mistaken for a failed sign-in.
 */
export function serveConnection(socket: WebSocket, deps: ConnectionDeps): void {
  const { hub, sessions, clock, log, slots } = deps;
  let client: LiveClient | undefined;
  /** This socket's place in its session's cap, once signed in; given back when it closes. */
  let slot: Promise<string | null> | undefined;
  let waiting: RawData[] | undefined;
  let windowStart = Date.now();
  let messagesInWindow = 0;
  const authTimer = setTimeout(
    () => socket.close(LIVE_CLOSE_UNAUTHORIZED, 'Authentication timed out'),
    LIVE_AUTH_TIMEOUT_MS,
  );

  socket.on('close', () => {
    clearTimeout(authTimer);
    if (client) hub.remove(client);
    void slot
      ?.then((id) => (id === null ? undefined : slots.release(id)))
      .catch((error: unknown) => log.warn({ err: error }, 'could not give back a live socket slot'));
  });

  socket.on('message', (raw) => {
    // ws itself refuses frames over LIVE_SOCKET_HARD_LIMIT without a word; up to that, a frame over the
    // console's limit is answered in the API's error shape and closed with a reason a person can read.
    if (rawSize(raw) > LIVE_MAX_FRAME_BYTES) {
      // Nothing is sent before sign-in; the close reason says it either way.
      if (client) hub.send(client, { type: 'error', message: LIVE_TOO_BIG_MESSAGE });
      socket.close(LIVE_CLOSE_TOO_BIG, LIVE_TOO_BIG_MESSAGE);
      return;
    }
    const now = Date.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      messagesInWindow = 0;
    }
    if (++messagesInWindow > MAX_MESSAGES_PER_SECOND) {
      socket.close(LIVE_CLOSE_UNAUTHORIZED, 'Too many messages');
    } else if (waiting) {
      waiting.push(raw);
    } else if (client) {
      handle(client, raw);
    } else {
      waiting = [];
      void authenticate(parse(raw)).then(() => {
        const queued = waiting ?? [];
        waiting = undefined;
        for (const message of queued) if (client) handle(client, message);
      });
    }
  });

  async function authenticate(message: ClientMessage | undefined): Promise<void> {
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
    slot = slots.take(session.sessionId, MAX_SOCKETS_PER_SESSION);
    const taken = await slot.catch((error: unknown) => {
      log.warn({ err: error }, 'could not count the live sockets of a session');
      return undefined;
    });
    if (taken === undefined) {
      socket.close(LIVE_CLOSE_TRY_AGAIN, 'Live connections cannot be counted right now (database unavailable)');
      return;
    }
    if (socket.readyState !== socket.OPEN) return;
    if (taken === null) {
      socket.close(
        LIVE_CLOSE_UNAUTHORIZED,
        `Too many live connections for this session (at most ${MAX_SOCKETS_PER_SESSION})`,
      );
      return;
    }
    client = {
      socket,
      token: message.token,
      sessionId: session.sessionId,
      userId: session.user.id,
      logSubscriptions: new Set(),
    };
    // Added before the newest event id is read: an event published meanwhile may arrive twice (the console
    // drops repeats by id), never not at all.
    hub.add(client);
    const head = await hub
      .feedHead()
      .catch((error: unknown) => void log.warn({ err: error }, 'newest live event id unknown'));
    hub.send(client, {
      type: 'welcome',
      data: {
        user: toUser(session.user),
        server_time: clock.now().toISOString(),
        ...(head === undefined ? {} : { last_event_id: head }),
      },
    });
    try {
      // What it missed since its last event (on this server or another), before the current state that supersedes it.
      if (message.last_event_id !== undefined)
        for (const missed of await hub.replay(message.last_event_id)) hub.send(client, missed);
      hub.send(client, { type: 'initial_data', data: await hub.loadInitialData() });
      for (const message of await hub.loadGreetings()) hub.send(client, message);
    } catch (error) {
      log.error({ err: error }, 'initial live data failed');
      hub.send(client, { type: 'error', message: 'Could not load the current fleet state' });
    }
  }

  function handle(current: LiveClient, raw: RawData): void {
    const message = parse(raw);
    if (!message) {
      hub.send(current, { type: 'error', message: 'Unknown or malformed message' });
      return;
    }
    if (message.action === 'ping') {
      hub.send(current, { type: 'pong', timestamp: clock.now().toISOString() });
      return;
    }
    if (message.action === 'client_connected') return;
    if (message.action === 'subscribe_logs') current.logSubscriptions.add(message.instance_id);
    if (message.action === 'unsubscribe_logs') current.logSubscriptions.delete(message.instance_id);
    const handler = hub.handlerFor(message.action);
    if (!handler) return;
    Promise.resolve()
      .then(() => handler(current, message as never))
      .catch((error: unknown) => {
        log.warn({ err: error }, 'live action failed');
        hub.send(current, { type: 'error', message: error instanceof Error ? error.message : 'Request failed' });
      });
  }
}
