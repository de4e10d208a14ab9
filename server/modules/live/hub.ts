import type { WebSocket } from 'ws';
import { LIVE_EVENT_TYPES, type ClientMessage, type ServerMessage } from '../../../contract/live';
import type { Clock } from '../../lib/clock';

/** Bytes queued to a client beyond which it is too slow to keep: it is dropped, not waited for. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const DAY_MS = 24 * 3600 * 1000;

export interface LiveClient {
  socket: WebSocket;
  /** The token the client signed in with: re-checked while the socket is open (token expiry included). */
  token: string;
  sessionId: string;
  userId: number;
  /** Instances whose logs this client asked to receive. */
  logSubscriptions: Set<string>;
}

/**
 * Where the hub's events go before consoles see them (feed.ts): numbered in the database, shared with
 * the other servers on it, and kept for consoles that come back. `record` never throws: undefined
 * when the event could not be stored (it still reaches this server's consoles, without an id).
 */
export interface EventSink {
  /** True when other servers relay these events to their consoles (PostgreSQL). */
  readonly crossServer: boolean;
  record(message: ServerMessage): Promise<number | undefined>;
  /** The newest event id now (a new console resumes from it). */
  head(): Promise<number>;
  /** What a console that last received `afterId` missed, or a refetch when that is no longer kept. */
  replay(afterId: number): Promise<ServerMessage[]>;
}

/**
 * The messages that are events of the feed. Others (system_status_update and system_health, which
 * describe this server's own health checks; errors) go to this server's consoles alone, unnumbered.
 */
const EVENT_TYPES: ReadonlySet<ServerMessage['type']> = new Set(LIVE_EVENT_TYPES);

type ActionHandler<A extends ClientMessage['action']> = (
  client: LiveClient,
  message: Extract<ClientMessage, { action: A }>,
) => Promise<void> | void;
type InitialData = Extract<ServerMessage, { type: 'initial_data' }>['data'];

/** Authenticated live-feed clients, and the one way the rest of the server talks to them. */
export class LiveHub {
  private readonly clients = new Set<LiveClient>();
  private readonly handlers = new Map<string, ActionHandler<never>>();
  private initialData: () => Promise<InitialData> = async () => ({
    instances: [],
    recordings: [],
    system_status: 'operational',
  });
  private readonly greetings: Array<() => Promise<ServerMessage>> = [];
  /** Send times of the last 24 h, oldest first, for the monitoring figures. */
  private readonly sentAt: number[] = [];
  /** Events are recorded one after another, so consoles receive them in the order they were published. */
  private recording: Promise<void> = Promise.resolve();

  constructor(
    private readonly clock: Clock,
    /** Where events are numbered and shared (feed.ts); without one they reach this server's consoles alone. */
    private readonly sink?: EventSink,
  ) {}

  get connectionCount(): number {
    return this.clients.size;
  }

  /** Whether an event published now reaches anyone: a console here, or other servers' consoles. */
  get hasAudience(): boolean {
    return this.clients.size > 0 || (this.sink?.crossServer ?? false);
  }

  /** Waits until every event published so far has been recorded and sent (tests, shutdown). */
  flushed(): Promise<void> {
    return this.recording;
  }

  messagesSentLast24h(): number {
    this.forgetOldSends();
    return this.sentAt.length;
  }

  add(client: LiveClient): void {
    this.clients.add(client);
  }

  remove(client: LiveClient): void {
    this.clients.delete(client);
  }

  /** The signed-in clients now (a copy: closing one while iterating is safe). */
  connected(): LiveClient[] {
    return [...this.clients];
  }

  /** Sends to every client, numbered and shared through the sink when there is one; the message is serialised once. */
  publish(message: ServerMessage): void {
    const sink = this.sink;
    if (!sink || !EVENT_TYPES.has(message.type)) {
      this.sendWhere(() => true, message);
      return;
    }
    this.recording = this.recording.then(async () => {
      const id = await sink.record(message);
      this.sendWhere(() => true, id === undefined ? message : withEventId(message, id));
    });
  }

  /** Sends another server's event (already numbered) to this server's clients. */
  relay(message: ServerMessage): void {
    this.sendWhere(() => true, message);
  }

  /** The newest event id, for a new client's welcome (0 without a sink). */
  feedHead(): Promise<number> {
    return this.sink?.head() ?? Promise.resolve(0);
  }

  /** What a client that last received `afterId` missed (nothing without a sink). */
  replay(afterId: number): Promise<ServerMessage[]> {
    return this.sink?.replay(afterId) ?? Promise.resolve([]);
  }

  /** Sends to the clients that subscribed to an instance's logs. */
  publishLogs(instanceId: string, logs: string[]): void {
    this.sendWhere((c) => c.logSubscriptions.has(instanceId), { type: 'instance_logs', instance_id: instanceId, logs });
  }

  hasLogSubscribers(instanceId: string): boolean {
    for (const client of this.clients) if (client.logSubscriptions.has(instanceId)) return true;
    return false;
  }

  send(client: LiveClient, message: ServerMessage): void {
    this.deliver(client, JSON.stringify(message));
  }

  /** Modules answer client actions (request_logs, ...) by registering a handler. */
  handle<A extends ClientMessage['action']>(action: A, handler: ActionHandler<A>): void {
    this.handlers.set(action, handler as unknown as ActionHandler<never>);
  }

  handlerFor(action: ClientMessage['action']): ActionHandler<never> | undefined {
    return this.handlers.get(action);
  }

  /** The module that owns instances and recordings supplies what a new client sees first. */
  provideInitialData(provider: () => Promise<InitialData>): void {
    this.initialData = provider;
  }

  loadInitialData(): Promise<InitialData> {
    return this.initialData();
  }

  /** A module adds a message every new client receives after initial_data (e.g. the open alarms). */
  addGreeting(greeting: () => Promise<ServerMessage>): void {
    this.greetings.push(greeting);
  }

  loadGreetings(): Promise<ServerMessage[]> {
    return Promise.all(this.greetings.map((greeting) => greeting()));
  }

  /** Closes the sockets of revoked sessions at once. */
  disconnectSessions(sessionIds: string[]): void {
    const revoked = new Set(sessionIds);
    for (const client of this.clients) {
      if (revoked.has(client.sessionId)) client.socket.close(1008, 'Session ended');
    }
  }

  closeAll(code: number, reason: string): void {
    for (const client of this.clients) client.socket.close(code, reason);
  }

  private sendWhere(predicate: (client: LiveClient) => boolean, message: ServerMessage): void {
    let payload: string | undefined;
    for (const client of this.clients) {
      if (!predicate(client)) continue;
      payload ??= JSON.stringify(message);
      this.deliver(client, payload);
    }
  }

  private deliver(client: LiveClient, payload: string): void {
    if (client.socket.readyState !== client.socket.OPEN) return;
    if (client.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.clients.delete(client);
      client.socket.terminate();
      return;
    }
    client.socket.send(payload);
    this.sentAt.push(this.clock.now().getTime());
    if (this.sentAt.length % 1024 === 0) this.forgetOldSends();
  }

  private forgetOldSends(): void {
    const since = this.clock.now().getTime() - DAY_MS;
    let drop = 0;
    while (drop < this.sentAt.length && this.sentAt[drop] < since) drop++;
    if (drop > 0) this.sentAt.splice(0, drop);
  }
}

export function withEventId(message: ServerMessage, id: number): ServerMessage {
  return { ...message, event_id: id } as ServerMessage;
}
