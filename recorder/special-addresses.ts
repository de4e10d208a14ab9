/*
 * IANA's special-purpose address registries (IPv4 and IPv6) and the multicast ranges, as ipaddr.js
 * names them: every range that is not an ordinary public unicast address. A recorder connects to none
 * of them: they are this machine, its networks, cloud metadata services, or addresses that embed an
 * IPv4 address (6to4, Teredo, NAT64, IPv4-mapped and -translated) and so can spell any internal one.
 * The recorder may import nothing but Node and its own files, so the list is written out here;
 * tests/server/security/special-addresses.test.ts checks it range by range against ipaddr.js, so an
 * update of that library that adds a range fails until the range is added here.
 */
import net from 'node:net';

/** [ipaddr.js's name of the range, its prefix, its length]. */
type Range = readonly [name: string, prefix: string, bits: number];

export const SPECIAL_V4: readonly Range[] = [
  ['unspecified', '0.0.0.0', 8],
  ['broadcast', '255.255.255.255', 32],
  ['multicast', '224.0.0.0', 4],
  ['linkLocal', '169.254.0.0', 16],
  ['loopback', '127.0.0.0', 8],
  ['carrierGradeNat', '100.64.0.0', 10],
  ['private', '10.0.0.0', 8],
  ['private', '172.16.0.0', 12],
  ['private', '192.168.0.0', 16],
  ['reserved', '192.0.0.0', 24],
  ['reserved', '192.0.2.0', 24],
  ['reserved', '192.88.99.0', 24],
  ['reserved', '198.18.0.0', 15],
  ['reserved', '198.51.100.0', 24],
  ['reserved', '203.0.113.0', 24],
  ['reserved', '240.0.0.0', 4],
  ['as112', '192.175.48.0', 24],
  ['as112', '192.31.196.0', 24],
  ['amt', '192.52.193.0', 24],
];

export const SPECIAL_V6: readonly Range[] = [
  ['unspecified', '::', 128],
  ['linkLocal', 'fe80::', 10],
  ['multicast', 'ff00::', 8],
  ['loopback', '::1', 128],
  ['uniqueLocal', 'fc00::', 7],
  ['ipv4Mapped', '::ffff:0:0', 96],
  ['deprecatedSiteLocal', 'fec0::', 10],
  ['discard', '100::', 64],
  ['rfc6145', '::ffff:0:0:0', 96],
  ['rfc6052', '64:ff9b::', 96],
  ['rfc6052', '64:ff9b:1::', 48],
  ['6to4', '2002::', 16],
  ['teredo', '2001::', 32],
  ['benchmarking', '2001:2::', 48],
  ['amt', '2001:3::', 32],
  ['as112v6', '2001:4:112::', 48],
  ['as112v6', '2620:4f:8000::', 48],
  ['deprecatedOrchid', '2001:10::', 28],
  ['orchid2', '2001:20::', 28],
  ['droneRemoteIdProtocolEntityTags', '2001:30::', 28],
  ['segmentRouting', '5f00::', 16],
  ['reserved', '2001::', 23],
  ['reserved', '2001:db8::', 32],
  ['reserved', '3fff::', 20],
];

/** Ranges of IANA's registries that ipaddr.js does not name (yet). */
export const SPECIAL_V6_BEYOND_IPADDR: readonly Range[] = [
  // IPv4-compatible addresses (RFC 4291, deprecated): ::a.b.c.d spells any IPv4 address, loopback included.
  ['ipv4Compatible', '::', 96],
  // The dummy prefix (RFC 9780), never routed.
  ['dummy', '100:0:0:1::', 64],
];

// One BlockList per family: a BlockList checks an IPv4 address against its IPv6 rules too (as ::ffff:a.b.c.d).
function listOf(ranges: readonly Range[], family: 'ipv4' | 'ipv6') {
  return ranges.map(([name, prefix, bits]) => {
    const list = new net.BlockList();
    list.addSubnet(prefix, bits, family);
    return { what: `${name}, ${prefix}/${bits}`, list };
  });
}
const V4 = listOf(SPECIAL_V4, 'ipv4');
const V6 = listOf([...SPECIAL_V6, ...SPECIAL_V6_BEYOND_IPADDR], 'ipv6');

/** The special-purpose range `address` is in, named ("reserved, 192.0.2.0/24"), or null for a public address. */
export function specialRangeOf(address: string): string | null {
  const family = net.isIP(address);
  if (family === 0) return null;
  const ranges = family === 4 ? V4 : V6;
  return ranges.find(({ list }) => list.check(address, family === 4 ? 'ipv4' : 'ipv6'))?.what ?? null;
}
