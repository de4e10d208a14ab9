/**
 * The consoles of the live-feed benchmark, in a process of their own so that they never share the
 * server's event loop: LIVE_CLIENTS websocket clients on LIVE_URL, each opening with
 * `client_connected` (contract/live.ts) as a console does. Driven over IPC by bench/live-feed.ts:
 * told which instance is about to change, each client notes the wall-clock time at which an
 * `instance_status_update` showing that instance `stopping` reaches it, and the receipts go back.
 * It stops by itself: when told to, when its parent goes away, or after HARD_LIMIT_MS.
 */
import { WebSocket, type RawData } from 'ws';

export type ToClients = { kind: 'watch'; seq: number; instanceId: string } | { kind: 'close' };
export type FromClients =
  | { kind: 'ready'; clients: number }
  | { kind: 'watching'; seq: number }
  /** Wall-clock receipt times (ms since the epoch), one per client; null where none came in time. */
  | { kind: 'receipts'; seq: number; receipts: (number | null)[] }
  | { kind: 'failed'; error: string };

const HARD_LIMIT_MS = 5 * 60_000;
const CONNECT_TIMEOUT_MS = 60_000;
/** How long one change may take to reach every client before the missing ones are reported as such. */
const WATCH_TIMEOUT_MS = 10_000;
const UPDATE_PREFIX = '{"type":"instance_status_update"';

const url = process.env.LIVE_URL ?? '';
const count = Number(process.env.LIVE_CLIENTS ?? 100);
/** Sessions the clients share, in turn (a session may hold only so many live sockets). */
const tokens = (process.env.LIVE_TOKENS ?? '').split(',');

/** The same clock in both processes: the epoch plus a monotonic offset, sub-millisecond. */
const wallClock = () => performance.timeOrigin + performance.now();

function send(message: FromClients): void {
  process.send?.(message);
}

function fail(error: string): never {
  send({ kind: 'failed', error });
  process.exit(1);
}

setTimeout(() => fail(`gave up after ${HARD_LIMIT_MS / 1000} s`), HARD_LIMIT_MS).unref();
process.on('disconnect', () => process.exit(0));

/**
 * The state of one instance in an instance_status_update, read without parsing the whole list (the
 * same cheap read for the server and the baseline). Each instance object starts with its id, and a
 * `"state":"` inside a string value would be escaped, so the first one after the id is its own.
 */
function stateIn(text: string, instanceId: string): string | undefined {
  const at = text.indexOf(`{"id":${JSON.stringify(instanceId)}`);
  if (at < 0) return undefined;
  const start = text.indexOf('"state":"', at);
  if (start < 0) return undefined;
  return text.slice(start + 9, text.indexOf('"', start + 9));
}

interface Watch {
  seq: number;
  instanceId: string;
  receipts: (number | null)[];
  remaining: number;
  timer: NodeJS.Timeout;
}
let watch: Watch | undefined;

function report(current: Watch): void {
  clearTimeout(current.timer);
  if (watch === current) watch = undefined;
  send({ kind: 'receipts', seq: current.seq, receipts: current.receipts });
}

function received(index: number, data: RawData): void {
  const at = wallClock(); // first, before any work of this client or the next
  const current = watch;
  if (!current || current.receipts[index] !== null) return;
  const text = data.toString();
  if (!text.startsWith(UPDATE_PREFIX) || stateIn(text, current.instanceId) !== 'stopping') return;
  current.receipts[index] = at;
  if (--current.remaining === 0) report(current);
}

const sockets: WebSocket[] = [];
let ready = 0;
let closing = false;
const connectTimer = setTimeout(
  () => fail(`only ${ready} of ${count} clients were ready within ${CONNECT_TIMEOUT_MS / 1000} s`),
  CONNECT_TIMEOUT_MS,
);

for (let index = 0; index < count; index++) {
  const socket = new WebSocket(url);
  let isReady = false;
  sockets.push(socket);
  socket.on('open', () =>
    socket.send(
      JSON.stringify({
        action: 'client_connected',
        timestamp: new Date().toISOString(),
        token: tokens[index % tokens.length],
      }),
    ),
  );
  socket.on('message', (data) => {
    if (isReady) return received(index, data);
    if (!data.toString().startsWith('{"type":"initial_data"')) return;
    isReady = true;
    if (++ready === count) {
      clearTimeout(connectTimer);
      send({ kind: 'ready', clients: count });
    }
  });
  socket.on('error', (error) => fail(`client ${index}: ${error.message}`));
  socket.on('close', (code, reason) => {
    if (!closing) fail(`client ${index} was closed by the server (${code} ${reason.toString()})`);
  });
}

process.on('message', (message: ToClients) => {
  if (message.kind === 'close') {
    closing = true;
    for (const socket of sockets) socket.terminate();
    process.disconnect?.();
    return;
  }
  if (watch) report(watch);
  const current: Watch = {
    seq: message.seq,
    instanceId: message.instanceId,
    receipts: Array.from({ length: count }, () => null),
    remaining: count,
    timer: setTimeout(() => report(current), WATCH_TIMEOUT_MS),
  };
  watch = current;
  send({ kind: 'watching', seq: message.seq });
});
