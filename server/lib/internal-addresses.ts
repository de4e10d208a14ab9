/*
 * Addresses a request made on an operator's behalf (a recorder's stream, a map link's redirect) must
 * not reach: this machine, its networks, link-local and cloud metadata services.
 */
import dns from 'node:dns/promises';
import net from 'node:net';

/** Loopback, private, link-local (incl. the 169.254.169.254 metadata service), shared, reserved and multicast. */
// Two lists: one BlockList checks IPv4 addresses against its IPv6 rules too (as ::ffff:a.b.c.d).
const INTERNAL_V4 = new net.BlockList();
const INTERNAL_V6 = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) INTERNAL_V4.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  // ::/96 (IPv4-compatible, with :: and ::1), ::ffff:0:0/96 (IPv4-mapped) and 64:ff9b::/96 (NAT64) can spell any IPv4 address, internal ones included.
  ['::', 96], ['::ffff:0:0', 96], ['64:ff9b::', 96], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) INTERNAL_V6.addSubnet(prefix, bits, 'ipv6');

export function isInternalAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return family === 4 ? INTERNAL_V4.check(address, 'ipv4') : INTERNAL_V6.check(address, 'ipv6');
}

export type HostResolver = (host: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (host) => (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
