import fs from 'node:fs';
import net from 'node:net';

/** The kernel's range for ephemeral ports (outgoing connections and listen(0)); Linux's default when unreadable. */
function ephemeralPortRange(): [number, number] {
  try {
    const [low, high] = fs
      .readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low && high) return [low, high];
  } catch {
    // not Linux: the default below
  }
  return [32768, 60999];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The lowest port freePort hands out: below it lie well-known services' ports. */
const LOWEST_TEST_PORT = 10_000;

/**
 * A port that was free a moment ago, for a process that binds it itself (a server started as a child).
 * It is picked below the kernel's ephemeral range: a port from that range could be taken, between this
 * check and the child's bind, by any outgoing connection on the machine (it was, once, in CI, and the
 * server failed with EADDRINUSE). Picked at random, two suites asking at once rarely meet; when they
 * do, the check here sees it.
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralPortRange();
  const span = ephemeralLow - LOWEST_TEST_PORT;
  if (span < 1000)
    throw new Error(`The ephemeral port range starts at ${ephemeralLow}: no room below it for test servers`);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOWEST_TEST_PORT + Math.floor(Math.random() * span);
    if (await canListen(port)) return port;
  }
  throw new Error(`No free port found between ${LOWEST_TEST_PORT} and ${ephemeralLow}`);
}
