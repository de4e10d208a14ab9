import path from 'node:path';
import { serviceUnavailable } from '../../lib/http-error';
import type { MediaElsewhere } from '../recordings/library';
import type { InternalCalls } from './internal-calls';
import { parseLocalScope } from './local-scope';
import type { ServerRegistry } from './registry';
import type { ServerRow, ServersRepository } from './repository';

/** How long the server holding a file may take to start answering (a large file's first bytes come off its disk). */
const MEDIA_ANSWER_MS = 5000;

/** Whether a server's local store (DATA_DIR/recordings) holds `filePath`. */
function holds(server: ServerRow, filePath: string): boolean {
  const folder = parseLocalScope(server.scope)?.folder;
  return folder !== undefined && filePath.startsWith(path.join(folder, 'recordings') + path.sep);
}

/**
 * Media on another server's disk, fetched from that server (internal address, signed call) with
 * the player's Range; when it is down, the answer names it (id, address, host) instead of a 404.
 */
export function mediaThroughServers(deps: { registry: ServerRegistry; repository: ServersRepository; calls: InternalCalls }): MediaElsewhere {
  return async (id, filePath, request) => {
    const holders = (await deps.repository.all()).filter((server) => holds(server, filePath) && server.id !== deps.registry.id);
    const url = `/internal/recordings/${encodeURIComponent(id)}/media${request.download ? '?download=1' : ''}`;
    for (const server of holders.filter((row) => deps.registry.isAlive(row))) {
      try {
        return await deps.calls.call(server.internal_address, 'GET', url, { headers: request.range ? { range: request.range } : {}, timeoutMs: MEDIA_ANSWER_MS });
      } catch {
        // not answering after all: another server of that folder may
      }
    }
    const last = holders.sort((a, b) => b.last_seen.localeCompare(a.last_seen))[0];
    throw serviceUnavailable(
      last
        ? `Recording ${id} is on the disk of server ${last.id} (${last.internal_address}, host ${last.host}), which is not answering (last heard from ${last.last_seen}); it plays again once that server is back`
        : `Recording ${id} is a file (${filePath}) on a server that is not registered with this database`,
    );
  };
}
