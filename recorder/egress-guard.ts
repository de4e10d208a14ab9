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
import { EC2_METADATA_ENDPOINT, instancePublicAddresses, runsOnEc2 } from './instance-metadata';
import { machineAddresses, type MachineAddresses } from './machine-addresses';
import { specialRangeOf } from './special-addresses';
import type { EgressPolicy } from './protocol';

export type { EgressPolicy } from './protocol';

let publicAddresses: readonly string[] = [];
const thisMachine = machineAddresses({ unlisted: () => publicAddresses });

export interface PublicAddressSource {
  isEc2: () => boolean;
  endpoint: string;
  timeoutMs?: number;
}

const EC2: PublicAddressSource = { isEc2: () => runsOnEc2(), endpoint: EC2_METADATA_ENDPOINT };
let learning: Promise<void> | undefined;
/** Whether each source's machine is an EC2 instance, read once (a file of /sys). */
const onEc2 = new WeakMap<PublicAddressSource, boolean>();

function isEc2(source: PublicAddressSource): boolean {
  let answer = onEc2.get(source);
  if (answer === undefined) onEc2.set(source, (answer = source.isEc2()));
  return answer;
}

/**
 * Learns, once per process, this machine's public addresses that no interface shows (on EC2, from the
 * instance metadata), which every check then refuses as the machine's own. Resolves at once elsewhere,
 * learning nothing. Rejects with the reason when the metadata cannot be read; the next call asks again.
 */
export function learnPublicAddresses(source: PublicAddressSource = EC2): Promise<void> {
  if (learning) return learning;
  if (!isEc2(source)) return Promise.resolve();
  learning = (async () => {
    publicAddresses = await instancePublicAddresses(source.endpoint, source.timeoutMs);
  })().catch((error: unknown) => {
    learning = undefined;
    throw new Error(
      `this machine's public address could not be read from the EC2 instance metadata (${error instanceof Error ? error.message : String(error)})`,
    );
  });
  return learning;
}

/**
 * Why a connection to `address` is refused, in words ("an internal address (loopback, 127.0.0.0/8)",
 * "an address of this machine (eth0)"), or null for a public address. The one list of what is internal
 * for the launch check, the recorder's pinned lookups and its egress proxy alike.
 */
export function internalReason(address: string, onThisMachine: MachineAddresses = thisMachine): string | null {
  const range = specialRangeOf(address);
  if (range) return `an internal address (${range})`;
  const face = onThisMachine(address);
  return face ? `an address of this machine (${face})` : null;
}

export function isInternalAddress(address: string): boolean {
  return internalReason(address) !== null;
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

export function createEgressPin(
  policy: EgressPolicy,
  lookup: AddressLookup = systemLookup,
  onThisMachine: MachineAddresses = thisMachine,
  publicAddressesLearned: () => Promise<void> = learnPublicAddresses,
): EgressPin {
  return async (host, port) => {
    const bare = host
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
      .toLowerCase();
    if (policy.allowPrivate || policy.trustedHosts.includes(`${bare}:${port}`)) return null;
    // Without them the check could not tell this machine's public address from anyone's.
    await publicAddressesLearned().catch((error: Error) => {
      throw new EgressRefused(
        `${bare} was not checked: ${error.message}; a recorder connects nowhere until it is read`,
      );
    });
    const family = net.isIP(bare);
    const addresses = family ? [{ address: bare, family }] : await lookup(bare);
    for (const { address } of addresses) {
      const reason = internalReason(address, onThisMachine);
      if (reason)
        throw new EgressRefused(
          `${bare} is ${address === bare ? '' : `${address}, `}${reason}: a recorder may not connect to it`,
        );
    }
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
