/*
 * Which hosts a recorder may be sent to. A stream URL is typed by any signed-in operator and fetched
 * by ffmpeg on a machine inside the network, so without this check a launch could read the server's
 * own ports, the LAN or a cloud metadata service into a downloadable video.
 */
import net from 'node:net';
import { badRequest, HttpError } from '../lib/http-error';
import { internalReason, learnPublicAddresses, systemResolver, type HostResolver } from '../lib/internal-addresses';

/** Names that only resolve inside a network, refused even when this server cannot resolve them. */
const HTTP = new Set(['http:', 'https:']);
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.lan', '.home.arpa', '.corp'];

/** The host as ffmpeg will see it: `[::1]` without brackets, no trailing dot, lower case. */
function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

export interface StreamUrlGuardOptions {
  /** ALLOW_PRIVATE_STREAM_HOSTS: streams on this network are expected (a LAN encoder, tests). */
  allowPrivate: boolean;
  /** The server's own demo stream, which lives on loopback. */
  isBuiltIn?: (url: URL) => boolean;
  resolve?: HostResolver;
}

/**
 * Throws a 400 when the host of `raw` (a URL the launch contract accepted) is, or resolves to, an
 * internal address, or when its protocol cannot pass the recorder's egress guard (which sees http and
 * https only). Answers the `host:port` pairs the recorder may reach though internal: the server's own
 * demo stream's.
 */
export function createStreamUrlGuard(options: StreamUrlGuardOptions): (raw: string) => Promise<string[]> {
  const resolve = options.resolve ?? systemResolver;
  return async (raw) => {
    const url = new URL(raw);
    if (options.allowPrivate) return [];
    const host = bareHost(url.hostname);
    if (options.isBuiltIn?.(url)) return [`${host}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`];
    await learnPublicAddresses().catch((error: Error) => {
      throw new HttpError(503, `${error.message}: no stream can be checked until it is read; try again shortly`);
    });
    const refused = (why: string) =>
      badRequest(
        `Stream host ${host} is on a private or internal network; set ALLOW_PRIVATE_STREAM_HOSTS=1 to record from it (${why})`,
      );
    /** The first address of `addresses` the recorders may not reach, with why ("10.0.0.7 is an internal address (private, 10.0.0.0/8)"). */
    const firstInternal = (addresses: string[]) =>
      addresses.flatMap((address) => {
        const reason = internalReason(address);
        return reason ? [`${address} is ${reason}`] : [];
      })[0];
    const unguardable = () =>
      badRequest(
        `${url.protocol.slice(0, -1)} streams cannot pass the recorders' egress guard, which sees http and https only; set ALLOW_PRIVATE_STREAM_HOSTS=1 to record them unchecked`,
      );
    if (net.isIP(host)) {
      const internal = firstInternal([host]);
      if (internal) throw refused(internal);
      if (!HTTP.has(url.protocol)) throw unguardable();
      return [];
    }
    if (!host.includes('.') || host === 'localhost' || INTERNAL_SUFFIXES.some((suffix) => host.endsWith(suffix)))
      throw refused('a name that only exists inside a network');
    let addresses: string[] = [];
    try {
      addresses = await resolve(host);
    } catch {
      // Not resolvable from here: the recorder cannot reach it either on this machine; a remote
      // recorder's own resolver is not ours to predict (its egress guard checks what it resolves).
    }
    const internal = firstInternal(addresses);
    if (internal) throw refused(internal);
    if (!HTTP.has(url.protocol)) throw unguardable();
    return [];
  };
}
