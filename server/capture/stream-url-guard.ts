/*
 * Which hosts a recorder may be sent to. A stream URL is typed by any signed-in operator and fetched
 * by ffmpeg on a machine inside the network, so without this check a launch could read the server's
 * own ports, the LAN or a cloud metadata service into a downloadable video.
 */
import dns from 'node:dns/promises';
import net from 'node:net';
import { badRequest } from '../lib/http-error';

/** Loopback, private, link-local (incl. the 169.254.169.254 metadata service), shared, reserved and multicast. */
// Two lists: one BlockList checks IPv4 addresses against its IPv6 rules too (as ::ffff:a.b.c.d).
const INTERNAL_V4 = new net.BlockList();
const INTERNAL_V6 = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) INTERNAL_V4.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  // ::ffff:0:0/96 (IPv4-mapped) and 64:ff9b::/96 (NAT64) can spell any IPv4 address, internal ones included.
  ['::', 127], ['::ffff:0:0', 96], ['64:ff9b::', 96], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) INTERNAL_V6.addSubnet(prefix, bits, 'ipv6');

/** Names that only resolve inside a network, refused even when this server cannot resolve them. */
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.lan', '.home.arpa', '.corp'];

export function isInternalAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return family === 4 ? INTERNAL_V4.check(address, 'ipv4') : INTERNAL_V6.check(address, 'ipv6');
}

/** The host as ffmpeg will see it: `[::1]` without brackets, no trailing dot, lower case. */
function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

export type HostResolver = (host: string) => Promise<string[]>;

const systemResolver: HostResolver = async (host) => (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export interface StreamUrlGuardOptions {
  /** ALLOW_PRIVATE_STREAM_HOSTS: streams on this network are expected (a LAN encoder, tests). */
  allowPrivate: boolean;
  /** The server's own demo stream, which lives on loopback. */
  isBuiltIn?: (url: URL) => boolean;
  resolve?: HostResolver;
}

/** Throws a 400 when the host of `raw` (a URL the launch contract accepted) is, or resolves to, an internal address. */
export function createStreamUrlGuard(options: StreamUrlGuardOptions): (raw: string) => Promise<void> {
  const resolve = options.resolve ?? systemResolver;
  return async (raw) => {
    const url = new URL(raw);
    if (options.isBuiltIn?.(url) || options.allowPrivate) return;
    const host = bareHost(url.hostname);
    const refused = () => badRequest(`Stream host ${host} is on a private or internal network; set ALLOW_PRIVATE_STREAM_HOSTS=1 to record from it`);
    if (net.isIP(host)) {
      if (isInternalAddress(host)) throw refused();
      return;
    }
    if (!host.includes('.') || host === 'localhost' || INTERNAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) throw refused();
    let addresses: string[];
    try {
      addresses = await resolve(host);
    } catch {
      // Not resolvable from here: the recorder cannot reach it either on this machine; a remote
      // recorder's own resolver is not ours to predict, and internal-looking names were refused above.
      return;
    }
    if (addresses.some(isInternalAddress)) throw refused();
  };
}
