/*
 * The one check every connection a recorder opens goes through: the playlist, its segments and keys,
 * each redirect, what yt-dlp resolved, every reconnect. The address is checked after DNS and the
 * connection is pinned to the address checked, so a name that answers a public address to the check
 * and loopback to the connection (DNS rebinding) reaches nothing. The HLS reader's own client pins
 * through `lookup`; ffmpeg and yt-dlp go through the recorder's loopback proxy (egress-proxy.ts), which
 * applies the same check to each request. Part of the recorder runtime: Node only.
 */
import dns from 'node:dns/promises';
import net from 'node:net';

/** Loopback, private, link-local (incl. the 169.254.169.254 metadata service), shared, reserved and multicast. */
// Two lists: one BlockList checks IPv4 addresses against its IPv6 rules too (as ::ffff:a.b.c.d).
const INTERNAL_V4 = new net.BlockList();
const INTERNAL_V6 = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  INTERNAL_V4.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  // ::/96 (IPv4-compatible, with :: and ::1), ::ffff:0:0/96 (IPv4-mapped) and 64:ff9b::/96 (NAT64) can spell any IPv4 address, internal ones included.
  ['::', 96],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  INTERNAL_V6.addSubnet(prefix, bits, 'ipv6');

export function isInternalAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return family === 4 ? INTERNAL_V4.check(address, 'ipv4') : INTERNAL_V6.check(address, 'ipv6');
}

/** Where a recorder may connect; written by the server into the recorder's config. */
export interface EgressPolicy {
  /** ALLOW_PRIVATE_STREAM_HOSTS: every address may be reached (a LAN encoder, tests); nothing is checked. */
  allowPrivate: boolean;
  /** `host:port` pairs reachable though internal: the server's own demo stream. */
  trustedHosts: string[];
}

export const GUARDED: EgressPolicy = { allowPrivate: false, trustedHosts: [] };

export interface PinnedAddress {
  address: string;
  family: number;
}

export type AddressLookup = (host: string) => Promise<PinnedAddress[]>;

const systemLookup: AddressLookup = (host) => dns.lookup(host, { all: true, verbatim: true });

/** A connection the guard refused: its message names the host and the address it would have reached. */
export class EgressRefused extends Error {
  readonly code = 'EGRESS_REFUSED';
}

/**
 * The address a connection to `host:port` must use, checked, or null when nothing is pinned (private
 * hosts allowed, or a trusted host). Throws EgressRefused for an internal address, and the resolver's
 * error (ENOTFOUND...) for a name that does not resolve.
 */
export type EgressPin = (host: string, port: number) => Promise<PinnedAddress | null>;

export function createEgressPin(policy: EgressPolicy, lookup: AddressLookup = systemLookup): EgressPin {
  return async (host, port) => {
    const bare = host
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
      .toLowerCase();
    if (policy.allowPrivate || policy.trustedHosts.includes(`${bare}:${port}`)) return null;
    const family = net.isIP(bare);
    const addresses = family ? [{ address: bare, family }] : await lookup(bare);
    const internal = addresses.find((a) => isInternalAddress(a.address));
    if (internal)
      throw new EgressRefused(
        `${bare} is ${internal.address === bare ? '' : `${internal.address}, `}an internal address: a recorder may not connect to it`,
      );
    if (!addresses[0]) throw Object.assign(new Error(`${bare} has no address`), { code: 'ENOTFOUND' });
    return addresses[0];
  };
}

type LookupCallback = (error: Error | null, address: string | PinnedAddress[], family?: number) => void;

/** A `lookup` for node:net, http and https that answers the pinned address whatever name is asked. */
export function pinnedLookup(pinned: PinnedAddress) {
  return (_host: string, options: { all?: boolean }, callback: LookupCallback): void => {
    if (options.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}
