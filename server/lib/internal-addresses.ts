/*
 * Addresses a request made on an operator's behalf (a recorder's stream, a map link's redirect) must
 * not reach: IANA's special-purpose ranges (this machine's loopback, its networks, link-local and cloud
 * metadata services, addresses that embed an IPv4 one) and every address of this machine's interfaces.
 * The list lives with the recorder's egress guard, which must carry it to the machines recorders run on.
 */
import dns from 'node:dns/promises';

export { internalReason, isInternalAddress, learnPublicAddresses } from '../../recorder/egress-guard';

export type HostResolver = (host: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (host) =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
