import path from 'node:path';
import { HttpError, serviceUnavailable } from '../../lib/http-error';
import type { RecordingsElsewhere } from '../recordings';
import type { CallTarget, InternalCalls } from './internal-calls';
import { parseLocalScope } from './local-scope';
import type { ServerRegistry } from './registry';
import type { ServerRow, ServersRepository } from './repository';

/**
 * How long the server holding a file may take to start answering (a large file's first bytes come
 * off its disk; a recording's folder of segments is removed from it).
 */
const HOLDER_ANSWER_MS = 5000;

/** Whether a server's local store (DATA_DIR/recordings) holds `filePath`. */
function holds(server: ServerRow, filePath: string): boolean {
  const folder = parseLocalScope(server.scope)?.folder;
  return folder !== undefined && filePath.startsWith(path.join(folder, 'recordings') + path.sep);
}

/**
 * Recordings on another server's disk, reached through that server (internal address, signed
 * call): their media, with the player's Range, and their deletion, done there so the file and its
 * row go together. When that server is down, the answer names it (id, address, host) and nothing
 * is done.
 */
export function recordingsThroughServers(deps: {
  registry: ServerRegistry;
  repository: ServersRepository;
  calls: InternalCalls;
}): RecordingsElsewhere {
  /** The answer of a live server holding `filePath` to `ask`; a 503 naming the holder when none answers. */
  const throughHolder = async (
    id: string,
    filePath: string,
    ask: (server: CallTarget) => Promise<Response>,
    whenBack: string,
  ): Promise<{ server: ServerRow; response: Response }> => {
    const holders = (await deps.repository.all()).filter(
      (server) => holds(server, filePath) && server.id !== deps.registry.id,
    );
    for (const server of holders.filter((row) => deps.registry.isAlive(row))) {
      try {
        return { server, response: await ask(server) };
      } catch {
        // not answering after all: another server of that folder may
      }
    }
    const last = holders.sort((a, b) => b.last_seen.localeCompare(a.last_seen))[0];
    throw serviceUnavailable(
      last
        ? `Recording ${id} is on the disk of server ${last.id} (${last.internal_address}, host ${last.host}), which is not answering (last heard from ${last.last_seen}); ${whenBack} once that server is back`
        : `Recording ${id} is a file (${filePath}) on a server that is not registered with this database`,
    );
  };

  return {
    async media(id, filePath, request) {
      const url = `/internal/recordings/${encodeURIComponent(id)}/media${request.download ? '?download=1' : ''}`;
      const ask = (server: CallTarget) =>
        deps.calls.call(server, 'GET', url, {
          headers: request.range ? { range: request.range } : {},
          timeoutMs: HOLDER_ANSWER_MS,
        });
      return (await throughHolder(id, filePath, ask, 'it plays again')).response;
    },

    async delete(id, filePath, actor) {
      const url = `/internal/recordings/${encodeURIComponent(id)}/delete`;
      const ask = (server: CallTarget) =>
        deps.calls.call(server, 'POST', url, { body: { actor }, timeoutMs: HOLDER_ANSWER_MS });
      const { server, response } = await throughHolder(id, filePath, ask, 'nothing was deleted; it can be deleted');
      if (response.ok) return;
      const answer = (await response.json().catch(() => ({}))) as { detail?: string };
      throw new HttpError(
        response.status,
        `Server ${server.id} (${server.internal_address}), which holds recording ${id}, answered: ${answer.detail ?? response.statusText}`,
      );
    },
  };
}
