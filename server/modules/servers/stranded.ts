import type { Clock } from '../../lib/clock';
import type { AlarmsService } from '../alarms';
import type { Continued, LostScope } from '../instances';
import { DEAD_AFTER_MS, type ServerRegistry } from './registry';
import { parseLocalScope } from './local-scope';
import type { ServersRepository } from './repository';
import { ADOPTION_LEASE_MS } from './adoption';

export const STRANDED_ALARM_PREFIX = 'server_gone:';
/** The key of the alarm of a server gone with the recorders of `scope`: one per scope, whoever raises it. */
export const serverGoneKey = (scope: string) => `${STRANDED_ALARM_PREFIX}${scope}`;

const recordings = (count: number) => (count === 1 ? '1 recording' : `${count} recordings`);

/**
 * A server that dies leaves its recorders running on its host. A live server on that host adopts them
 * (adoption.ts); when there is none, a server that stopped cleanly (an upgrade) is waited for: its
 * recorders run on and it takes them back when it starts again. One that died without stopping is
 * taken as lost with its machine (its recorders' files are there):
 * at a takeover pass, one live server (the holder of the scope's lease in scope_adoptions, for that
 * pass, once the lost server is marked taken over) takes the dead server's live rows over
 * (instances/continuation.ts), continuing each recording whose window is still open with a recorder of
 * its own and judging the others from what is known. The operator is told once per dead server, not
 * once per recording: a critical alarm saying what was continued and what was judged. It stays open
 * (an operator may acknowledge it) until a server runs on that host again: resolved at the first pass
 * that sees one. A server stopped cleanly (SIGTERM, an upgrade) is told of in one informational
 * message that its recordings run unwatched until it is back, never a page.
 */
export class StrandedScopes {
  constructor(
    private readonly deps: {
      registry: Pick<ServerRegistry, 'live' | 'id'>;
      repository: Pick<ServersRepository, 'lastOfScope' | 'leaseScope' | 'releaseScope' | 'takeOverScope'>;
      clock: Clock;
      liveCountsByScope: () => Promise<{ scope: string; count: number }[]>;
      continueLost: (lost: LostScope) => Promise<Continued>;
      alarms: Pick<AlarmsService, 'raise' | 'resolve' | 'openKeys'>;
    },
  ) {}

  async pass(): Promise<void> {
    const { registry, repository, alarms } = this.deps;
    const live = await registry.live();
    /** A server runs that scope, or (a local scope) on its host: its recorders are followed again. */
    const followed = (scope: string) => {
      const host = parseLocalScope(scope)?.host;
      return live.some((server) => server.scope === scope || (host !== undefined && server.host === host));
    };
    for (const { scope, count } of await this.deps.liveCountsByScope()) {
      // A cloud scope (no host) is followed by every server.
      const host = parseLocalScope(scope)?.host;
      if (!host || followed(scope)) continue;
      const key = serverGoneKey(scope);
      const last = await repository.lastOfScope(scope);
      if (!last || last.stopped_at) {
        // Stopped cleanly (an upgrade): its recorders run on, and it takes them back when it starts again.
        const who = last
          ? `Server ${last.id} (${last.internal_address}) on ${host} was stopped at ${last.stopped_at}`
          : `The server of ${scope} is not registered`;
        await alarms.raise({
          kind: 'server_gone',
          key,
          severity: last ? 'info' : undefined,
          message: `${who}: ${recordings(count)} of it run unwatched and are not judged until a server on ${host} starts again with that data folder`,
        });
        continue;
      }
      const who = `Server ${last.id} (${last.internal_address}) on ${host}`;
      const lost = {
        scope,
        lastSeen: Date.parse(last.last_seen),
        reason: `${who} was lost (last seen ${last.last_seen})`,
      };
      const done = await this.takeOver(lost);
      if (done.continued + done.judged > 0) {
        const judged = done.judged > 0 ? `; ${recordings(done.judged)} judged from what was known (window over)` : '';
        await alarms.raise({
          kind: 'server_gone',
          key,
          message: `${lost.reason}, and no server is left on ${host}: ${recordings(done.continued)} continued on server ${registry.id} from where the lost recorders stopped, what the stream no longer offered a gap${judged}`,
        });
      }
    }
    const back = (await alarms.openKeys(STRANDED_ALARM_PREFIX)).filter((key) =>
      followed(key.slice(STRANDED_ALARM_PREFIX.length)),
    );
    await alarms.resolve(...back);
  }

  /** The rows of a lost scope taken over here, when this server holds its lease (one server a pass does it all). */
  private async takeOver(lost: LostScope): Promise<Continued> {
    const { registry, repository, clock } = this.deps;
    const now = clock.now();
    const expiredBefore = new Date(now.getTime() - DEAD_AFTER_MS).toISOString();
    const nothing = { continued: 0, judged: 0 };
    // Nothing is taken from a server that beat since it was seen silent: its lease is re-checked as it is marked taken.
    if ((await repository.takeOverScope(lost.scope, registry.id, now.toISOString(), expiredBefore)).owned)
      return nothing;
    if (
      !(await repository.leaseScope(
        lost.scope,
        registry.id,
        now.toISOString(),
        new Date(now.getTime() + ADOPTION_LEASE_MS).toISOString(),
      ))
    )
      return nothing;
    try {
      return await this.deps.continueLost(lost);
    } finally {
      await repository.releaseScope(lost.scope, registry.id);
    }
  }
}
