/*
 * Which hosts a recorder may be sent to. A stream URL is typed by any signed-in operator and fetched
 * by ffmpeg on a machine inside the network, so without this check a launch could read the server's
 * own ports, the LAN or a cloud metadata service into a downloadable video.
 */
import net from 'node:net';
import { badRequest } from '../lib/http-error';
import { isInternalAddress, systemResolver, type HostResolver } from '../lib/internal-addresses';

/** Names that only resolve inside a network, refused even when this server cannot resolve them. */
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.lan', '.home.arpa', '.corp'];

/** The host as ffmpeg will see it: `[::1]` without brackets, no trailing dot, lower case. */
function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

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
