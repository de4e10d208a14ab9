import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import {
  serverMessageSchema,
  type ServerMessage,
  type ServerMessageOf,
  type ServerMessageType,
} from '../../../contract/live';
import type { App } from '../../../server/app';
import { scaled } from '../../../testkit/time-scale';

export interface LiveClient {
  socket: WebSocket;
  /** Every message received so far, checked against the contract. */
  received: ServerMessage[];
  /** When each of `received` arrived (performance.now()). */
  receivedAt: number[];
  /** Resolves with the next message of a type (or one already received and not yet taken). */
  next<T extends ServerMessageType>(type: T, timeoutMs?: number): Promise<ServerMessageOf<T>>;
  /** Resolves when the server closes the socket. */
  closed: Promise<{ code: number; reason: string }>;
  send(message: unknown): void;
  /** Closes from this side and waits until the server has seen it. */
  close(): Promise<void>;
}

/** Starts the app on a free port of 127.0.0.1 and returns the websocket URL of the live feed. */
export async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}/ws`;
}

export async function connect(url: string, options: { origin?: string } = {}): Promise<LiveClient> {
  const socket = new WebSocket(url, { origin: options.origin });
  const received: ServerMessage[] = [];
  const receivedAt: number[] = [];
  const taken = new Set<ServerMessage>();
  const waiters: Array<() => void> = [];
  socket.on('message', (raw) => {
    received.push(serverMessageSchema.parse(JSON.parse(raw.toString())));
    receivedAt.push(performance.now());
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const wake of waiters.splice(0)) wake();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });

  const next: LiveClient['next'] = (type, quietTimeoutMs = 5000) =>
    new Promise((resolve, reject) => {
      const timeoutMs = scaled(quietTimeoutMs);
      const timer = setTimeout(() => reject(new Error(`no ${type} message within ${timeoutMs} ms`)), timeoutMs);
      const look = () => {
        const found = received.find((m) => m.type === type && !taken.has(m));
        if (found) {
          taken.add(found);
          clearTimeout(timer);
          resolve(found as never);
        } else if (socket.readyState === WebSocket.CLOSED) {
          clearTimeout(timer);
          reject(new Error(`socket closed before a ${type} message`));
        } else {
          waiters.push(look);
        }
      };
      look();
    });

  return {
    socket,
    received,
    receivedAt,
    next,
    closed,
    send: (message) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    close: async () => {
      socket.close();
      await closed;
    },
  };
}

/** The first message; `lastEventId` resumes the feed after the last event a console received. */
export const hello = (token: string, lastEventId?: number) => ({
  action: 'client_connected',
  timestamp: new Date().toISOString(),
  token,
  ...(lastEventId === undefined ? {} : { last_event_id: lastEventId }),
});

/** Connects and authenticates; resolves once `welcome` arrived. A built server checks `origin` (its own address). */
export async function connectAs(
  url: string,
  token: string,
  lastEventId?: number,
  origin?: string,
): Promise<LiveClient> {
  const client = await connect(url, { origin });
  client.send(hello(token, lastEventId));
  await client.next('welcome');
  return client;
}
