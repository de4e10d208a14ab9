import type { AlarmsService } from '../alarms/service';
import type { ServerRegistry } from './registry';
import { parseLocalScope } from './local-scope';
import type { ServersRepository } from './repository';

export const STRANDED_ALARM_PREFIX = 'server_gone:';

/**
 * A server that dies leaves its recorders running on its host. A live server on that host adopts them
 * (adoption.ts); when there is none, nothing follows them: their rows stay live and are not judged
 * (their media is on that host), and the operator is told once per dead server, not once per
 * recording, with a critical alarm that resolves by itself when a server of that host is back or
 * nothing of it runs any more. Every live server checks at its heartbeat; the alarm's key makes the
 * raises one alarm.
 */
export class StrandedScopes {
  constructor(
    private readonly deps: {
      registry: Pick<ServerRegistry, 'live'>;
      repository: Pick<ServersRepository, 'lastOfScope'>;
      liveCountsByScope: () => Promise<{ scope: string; count: number }[]>;
      alarms: Pick<AlarmsService, 'raise' | 'resolveAllExcept'>;
    },
  ) {}

  async pass(): Promise<void> {
    const { registry, repository, alarms } = this.deps;
    const live = await registry.live();
    const stranded = new Set<string>();
    for (const { scope, count } of await this.deps.liveCountsByScope()) {
      // A cloud scope (no host) is followed by every server.
      const host = parseLocalScope(scope)?.host;
      if (!host || live.some((server) => server.scope === scope || server.host === host)) continue;
      const key = `${STRANDED_ALARM_PREFIX}${scope}`;
      stranded.add(key);
      const last = await repository.lastOfScope(scope);
      const who = last ? `Server ${last.internal_address} on ${host} stopped answering at ${last.last_seen}` : `The server of ${scope} is not registered`;
      const recordings = count === 1 ? '1 recording' : `${count} recordings`;
      await alarms.raise({
        kind: 'server_gone',
        key,
        message: `${who}: ${recordings} of it run unwatched and are not judged until a server on ${host} starts again with that data folder`,
      });
    }
    await alarms.resolveAllExcept(STRANDED_ALARM_PREFIX, stranded);
  }
}
