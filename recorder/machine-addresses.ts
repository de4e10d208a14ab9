/*
 * The addresses of this machine's own interfaces. A service bound to 0.0.0.0 answers on every one of
 * them, a public one included, so a stream pointed at the machine's own address reaches its services
 * as surely as one pointed at loopback. Interfaces come and go (a VPN, DHCP, a container network), so
 * the list is read again when it is older than a refresh interval. Part of the recorder runtime: Node only.
 */
import net from 'node:net';
import os from 'node:os';

export interface MachineAddressOptions {
  /** os.networkInterfaces by default. */
  read?: () => NodeJS.Dict<os.NetworkInterfaceInfo[]>;
  now?: () => number;
  /** How old the list may grow before it is read again (30 s). */
  refreshMs?: number;
  /** Addresses of this machine that no interface shows (an EC2 instance's public ones), asked at each check. */
  unlisted?: () => readonly string[];
}

/** How the check names an address of `unlisted`. */
export const UNLISTED_NAME = 'its public address, from the EC2 instance metadata';

export type MachineAddresses = (address: string) => string | null;

/** A check answering which interface of this machine has `address` ("eth0"), or null. */
export function machineAddresses(options: MachineAddressOptions = {}): MachineAddresses {
  const read = options.read ?? os.networkInterfaces;
  const now = options.now ?? Date.now;
  const refreshMs = options.refreshMs ?? 30_000;
  let readAt = -Infinity;
  let known: { name: string; v4: net.BlockList; v6: net.BlockList }[] = [];
  return (address) => {
    const family = net.isIP(address);
    if (family === 0) return null;
    if (now() - readAt >= refreshMs) {
      readAt = now();
      known = Object.entries(read()).map(([name, infos]) => {
        const v4 = new net.BlockList();
        const v6 = new net.BlockList();
        for (const info of infos ?? []) {
          if (info.family === 'IPv4') v4.addAddress(info.address, 'ipv4');
          else v6.addAddress(info.address.replace(/%.*$/, ''), 'ipv6');
        }
        return { name, v4, v6 };
      });
    }
    const bare = address.replace(/%.*$/, '');
    if (options.unlisted?.().some((own) => own === bare || (family === 6 && sameIpv6(own, bare)))) return UNLISTED_NAME;
    return known.find(({ v4, v6 }) => (family === 4 ? v4.check(bare, 'ipv4') : v6.check(bare, 'ipv6')))?.name ?? null;
  };
}

/** Two spellings of one IPv6 address (`2001:db8::1` and `2001:0db8:0:0::1`). */
function sameIpv6(a: string, b: string): boolean {
  if (net.isIPv6(a) === false) return false;
  const list = new net.BlockList();
  list.addAddress(a, 'ipv6');
  return list.check(b, 'ipv6');
}
