import type { ClientMessage, ServerMessage, ServerMessageType } from '../../contract/live';
import { mayReconnect, PING_INTERVAL_MS, reconnectDelay } from '../lib/backoff';

/** The part of the browser WebSocket the connection uses; tests pass a fake. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
}

export type SocketFactory = (url: string) => SocketLike;

const OPEN = 1;

export const KNOWN_TYPES: ReadonlySet<ServerMessageType> = new Set<ServerMessageType>([
  'welcome',
  'pong',
  'error',
  'initial_data',
  'instance_status_update',
  'recordings_update',
  'instance_logs',
  'launch_complete',
  'launch_error',
  'system_status_update',
  'system_health',
  'alarms',
  'alarm',
  'mosque_update',
  'user_update',
  'refetch',
]);

/** Event ids remembered as received: a server replays a few before the one named, and those are dropped. */
const REMEMBERED_EVENT_IDS = 1024;

export interface LiveConnectionOptions {
  url: string;
  getToken: () => string | null;
  onConnectedChange: (connected: boolean) => void;
  /** Told when the server welcomes the session again after a lost or failed connection (its data may be stale). */
  onReconnected?: () => void;
  /** Told when the server could not replay every event missed (`refetch`): what the console shows may be stale. */
  onRefetch?: () => void;
  /** Told when the back-off runs out (true) and when trying starts again (false). */
  onGaveUpChange?: (gaveUp: boolean) => void;
  onMessage: (message: ServerMessage) => void;
  createSocket?: SocketFactory;
  log?: Pick<Console, 'warn'>;
  now?: () => number;
}

/** A hint that the server may be back (tab visible, browser online, an HTTP answer) opens at most this often. */
export const NUDGE_MIN_INTERVAL_MS = 1000;

/** `wss` when the page is https, else `ws`, on the page's own host. */
export function defaultLiveUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
}

/**
 * One websocket to /ws (docs/reference.md section 7, Live socket; docs/architecture.md, Live feed). The first message carries the token;
 * a ping goes every 30 s; after a close it retries 1 s, 2 s, 4 s ... capped at 30 s, at most 10 times.
 * The attempt count resets only once the server welcomes the session, so a refused token cannot loop forever.
 * After the last attempt it does not stay dead: `reconnect()` (the operator's Reconnect) and `nudge()` (a sign
 * that the server is back) start a fresh round of attempts.
 */
export class LiveConnection {
  private socket: SocketLike | null = null;
  private attempts = 0;
  private stopped = true;
  private connected = false;
  private gaveUp = false;
  /** A connection was lost or could not be made since the last welcome. */
  private interrupted = false;
  private lastOpenAt = Number.NEGATIVE_INFINITY;
  /** The newest event received (from any server): a new connection, to whichever server, resumes after it. */
  private lastEventId: number | undefined;
  private readonly seenEventIds = new Set<number>();
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: LiveConnectionOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.attempts = 0;
    this.open();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.clearPing();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = socket.onclose = socket.onmessage = socket.onerror = null;
      socket.close(1000, 'Client closed');
    }
    this.setConnected(false);
  }

  /** Tries again now with a fresh round of attempts, unless connected or already opening. */
  reconnect(): void {
    if (this.stopped || this.socket) return;
    clearTimeout(this.retryTimer);
    this.attempts = 0;
    this.setGaveUp(false);
    this.open();
  }

  /**
   * The server may be reachable again: while waiting for the next attempt (or after giving up), try now.
   * Throttled, so that frequent HTTP answers cannot turn a refused socket into a loop.
   */
  nudge(): void {
    const now = this.options.now?.() ?? Date.now();
    if (this.stopped || this.socket || now - this.lastOpenAt < NUDGE_MIN_INTERVAL_MS) return;
    this.reconnect();
  }

  /** Sends when the socket is open; returns false (and sends nothing) otherwise. */
  send(message: ClientMessage): boolean {
    if (!this.socket || this.socket.readyState !== OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  private open(): void {
    const token = this.options.getToken();
    if (!token) return;
    this.lastOpenAt = this.options.now?.() ?? Date.now();
    const create = this.options.createSocket ?? ((url: string) => new WebSocket(url));
    let socket: SocketLike;
    try {
      socket = create(this.options.url);
    } catch (error) {
      this.options.log?.warn('Live connection could not be opened', error);
      this.interrupted = true;
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      const resumeFrom = this.lastEventId === undefined ? {} : { last_event_id: this.lastEventId };
      this.send({ action: 'client_connected', timestamp: new Date().toISOString(), token, ...resumeFrom });
      this.pingTimer = setInterval(
        () => this.send({ action: 'ping', timestamp: new Date().toISOString() }),
        PING_INTERVAL_MS,
      );
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onerror = () => undefined; // a close always follows; the retry happens there
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.interrupted = true;
      this.clearPing();
      this.setConnected(false);
      this.scheduleReconnect();
    };
  }

  private receive(data: unknown): void {
    let message: ServerMessage;
    try {
      message = JSON.parse(String(data)) as ServerMessage;
    } catch (error) {
      this.options.log?.warn('Live message could not be parsed', error);
      return;
    }
    if (!message || typeof message !== 'object' || !KNOWN_TYPES.has(message.type)) {
      this.options.log?.warn('Live message of unknown type', (message as { type?: unknown } | null)?.type);
      return;
    }
    if (!this.isNew(message)) return;
    if (message.type === 'welcome') this.lastEventId ??= message.data.last_event_id;
    if (message.type === 'refetch') this.options.onRefetch?.();
    if (message.type === 'welcome' || message.type === 'initial_data') {
      this.attempts = 0;
      const resumed = this.interrupted && !this.connected;
      this.interrupted = false;
      this.setConnected(true);
      if (resumed) this.options.onReconnected?.();
    }
    this.options.onMessage(message);
  }

  /** False for an event already received (a replay overlaps what came live); remembers the newest. */
  private isNew(message: ServerMessage): boolean {
    const id = 'event_id' in message ? message.event_id : undefined;
    if (id === undefined) return true;
    if (this.seenEventIds.has(id)) return false;
    this.seenEventIds.add(id);
    if (this.seenEventIds.size > REMEMBERED_EVENT_IDS)
      this.seenEventIds.delete(this.seenEventIds.values().next().value as number);
    this.lastEventId = Math.max(this.lastEventId ?? 0, id);
    return true;
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    if (!mayReconnect(this.attempts)) {
      this.setGaveUp(true);
      return;
    }
    const delay = reconnectDelay(this.attempts);
    this.attempts += 1;
    this.retryTimer = setTimeout(() => {
      if (!this.stopped) this.open();
    }, delay);
  }

  private clearPing(): void {
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
  }

  private setGaveUp(gaveUp: boolean): void {
    if (this.gaveUp === gaveUp) return;
    this.gaveUp = gaveUp;
    this.options.onGaveUpChange?.(gaveUp);
  }

  private setConnected(connected: boolean): void {
    if (this.connected === connected) return;
    this.connected = connected;
    this.options.onConnectedChange(connected);
  }
}
