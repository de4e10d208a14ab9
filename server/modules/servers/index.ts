import type { FastifyBaseLogger } from 'fastify';
import packageJson from '../../../package.json' with { type: 'json' };
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { AppInstance } from '../../lib/fastify';
import type { SecretKeys } from '../../lib/secret-key';
import { registerInternalInstanceRoutes } from '../instances';
import type { InstancesService } from '../instances';
import { ScopeAdoption } from './adoption';
import { registerInternalRecordingRoutes } from '../recordings';
import type { RecordingsLibrary } from '../recordings';
import type { RecordingStore } from '../../storage/recording-store';
import { InternalCalls } from './internal-calls';
import { ScopeOwners } from './owners';
import { DEAD_AFTER_MS, ServerRegistry } from './registry';
import { otherScopesThroughServers } from './remote-fleet';
import { recordingsThroughServers } from './remote-media';
import { ServersRepository } from './repository';
import { serverGoneKey, StrandedScopes } from './stranded';
import type { AlarmsService } from '../alarms';
import type { MonitoringService } from '../monitoring';
import { openHeartbeatConnection } from './heartbeat-connection';
import { TakeoverTask } from './takeover';

export { DEAD_AFTER_MS, HEARTBEAT_MS, ServerRegistry } from './registry';
export type { LeaseTaken } from './registry';
export type { ServerRow } from './repository';

/** Rows of servers dead this long are removed (a restarted server registers under a new id). */
const FORGET_AFTER_MS = 7 * 24 * 3_600_000;

export interface ServersModule {
  registry: ServerRegistry;
  /** Signed calls to and from the other servers. */
  calls: InternalCalls;
  /** Which live server runs the recorders of a scope. */
  owners: ScopeOwners;
}

/**
 * This server among the others sharing a PostgreSQL database: registered in the servers table once
 * it listens (an app driven by inject alone is no server the others could call), beating until it
 * closes, reaching the recorders and media of the other servers, adopting a dead one's recorders.
 * On SQLite there is one server: it does not register, and nothing reaches out.
 */
export function registerServers(
  app: AppInstance,
  deps: {
    config: Config;
    db: Db;
    clock: Clock;
    keys: SecretKeys;
    log: FastifyBaseLogger;
    id: string;
    instances: InstancesService;
    fleetOfFolder: (folder: string) => InstancesService;
    library: RecordingsLibrary;
    store: RecordingStore;
    alarms: AlarmsService;
    monitoring: MonitoringService;
  },
): ServersModule {
  const { config, db, clock, log, instances } = deps;
  const repository = new ServersRepository(db.kysely);
  const heartbeat =
    db.dialect === 'postgres' && config.databaseUrl ? openHeartbeatConnection(config.databaseUrl) : null;
  const registry = new ServerRegistry(
    deps.id,
    repository,
    clock,
    {
      host: config.hostName,
      internalAddress: config.internalUrl,
      version: packageJson.version,
      scope: instances.scope,
    },
    log,
    heartbeat?.repository,
  );
  const calls = new InternalCalls(deps.keys.derive('internal-calls'), clock, registry.id);
  const owners = new ScopeOwners(registry, repository, clock);
  const adoption = new ScopeAdoption({
    registry,
    repository,
    clock,
    log,
    host: config.hostName,
    own: instances,
    fleetOfFolder: deps.fleetOfFolder,
  });
  if (db.dialect === 'postgres') {
    instances.reachOtherScopes(
      otherScopesThroughServers({ owners, calls, adopted: (scope) => adoption.fleetOf(scope) }),
    );
    deps.library.reachOtherServers(recordingsThroughServers({ registry, repository, calls }));
    const stranded = new StrandedScopes({
      registry,
      repository,
      clock,
      liveCountsByScope: () => instances.liveCountsByScope(),
      continueLost: (lost) => instances.continueLost(lost),
      alarms: deps.alarms,
    });
    const takeover = new TakeoverTask(
      [
        { name: 'expired leases', pass: () => takeOverExpired(registry, repository, clock, log) },
        { name: 'adoption', pass: () => adoption.pass() },
        { name: 'lost hosts', pass: () => stranded.pass() },
        {
          name: 'forget',
          pass: () => repository.forgetSilentSince(new Date(clock.now().getTime() - FORGET_AFTER_MS).toISOString()),
        },
      ],
      clock,
      log,
    );
    // What a server taken over does at once; a stop that follows waits for it (the alarm is written first).
    let leaseLost: Promise<unknown> = Promise.resolve();
    registry.onLeaseLost((taken) => {
      const said = deps.alarms
        .raise({
          kind: 'server_gone',
          key: serverGoneKey(instances.scope),
          message: `Server ${registry.id} (${config.internalUrl}) on ${config.hostName} was taken over by ${taken.by} at ${taken.at} after ${DEAD_AFTER_MS / 1000} s without a heartbeat, though it was still running: it stopped its claims and stops; restarted, it takes part again`,
        })
        .catch((error: unknown) => log.error({ err: error }, 'could not raise the alarm of this server taken over'));
      leaseLost = Promise.allSettled([takeover.stop(), adoption.close(), said]);
    });
    registerHeartbeatGauges(deps.monitoring, registry);
    app.addHook('onListen', async () => {
      await registry.start();
      takeover.start();
    });
    app.addHook('preClose', async () => {
      await leaseLost;
      await registry.stop();
      await takeover.stop();
      await adoption.close();
    });
    app.addHook('onClose', async () => {
      await heartbeat?.close();
    });
  }
  registerInternalInstanceRoutes(app, { guard: calls.guard, fleets: () => [instances, ...adoption.fleets()] });
  registerInternalRecordingRoutes(app, { guard: calls.guard, library: deps.library, store: deps.store });
  return { registry, calls, owners };
}

/** How late this server's heartbeats land, on /metrics: a server near DEAD_AFTER_MS is about to be taken over. */
function registerHeartbeatGauges(monitoring: MonitoringService, registry: ServerRegistry): void {
  monitoring.registerGauge({
    name: 'capture_heartbeat_lateness_seconds',
    help: "Seconds between this server's latest heartbeat falling due and its write landing",
    collect: () => [{ value: registry.lateness.last() }],
  });
  monitoring.registerGauge({
    name: 'capture_heartbeat_lateness_max_seconds',
    help: `Largest heartbeat lateness of the last ten minutes (taken over at ${DEAD_AFTER_MS / 1000} s)`,
    collect: () => [{ value: registry.lateness.max() }],
  });
  monitoring.registerGauge({
    name: 'capture_heartbeat_lease_lost',
    help: "1 once another server took this server's lease over (it stops its claims), else 0",
    collect: () => [{ value: registry.leaseTaken() ? 1 : 0 }],
  });
}

/** Marks taken over every server whose lease ran out: it is dead from then on, and refused if it beats again. */
async function takeOverExpired(
  registry: ServerRegistry,
  repository: ServersRepository,
  clock: Clock,
  log: FastifyBaseLogger,
): Promise<void> {
  const now = clock.now();
  const expiredBefore = new Date(now.getTime() - DEAD_AFTER_MS).toISOString();
  for (const row of await repository.takeOverExpired(registry.id, now.toISOString(), expiredBefore))
    log.warn(
      { serverId: row.id, host: row.host, lastSeen: row.last_seen },
      `took over server ${row.id} on ${row.host}: no heartbeat since ${row.last_seen}`,
    );
}
