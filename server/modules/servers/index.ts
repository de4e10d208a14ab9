import type { FastifyBaseLogger } from 'fastify';
import packageJson from '../../../package.json' with { type: 'json' };
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { EventBus } from '../../lib/events';
import type { AppInstance } from '../../lib/fastify';
import type { SecretKeys } from '../../lib/secret-key';
import type { ServerModule } from '../../lib/server-module';
import { registerInternalInstanceRoutes, type InstancesService, type OtherScopes } from '../instances';
import type { RecordingsElsewhere } from '../recordings';
import type { AlarmsService } from '../alarms';
import type { MonitoringService } from '../monitoring';
import { ScopeAdoption } from './adoption';
import { InternalCalls } from './internal-calls';
import { ScopeOwners } from './owners';
import { DEAD_AFTER_MS, ServerRegistry } from './registry';
import { otherScopesThroughServers } from './remote-fleet';
import { recordingsThroughServers } from './remote-media';
import { ServersRepository } from './repository';
import { serverGoneKey, StrandedScopes } from './stranded';
import { openHeartbeatConnection } from './heartbeat-connection';
import { TakeoverTask } from './takeover';

export { DEAD_AFTER_MS, HEARTBEAT_MS, ServerRegistry } from './registry';
export type { LeaseTaken } from './registry';
export type { ServerRow } from './repository';

/** Rows of servers dead this long are removed (a restarted server registers under a new id). */
const FORGET_AFTER_MS = 7 * 24 * 3_600_000;

/** This server among the others, as other modules use it. */
export interface ServersModuleService {
  registry: ServerRegistry;
  /** Signed calls to and from the other servers (`calls.guard` guards the internal routes). */
  calls: InternalCalls;
  /** Which live server runs the recorders of a scope. */
  owners: ScopeOwners;
  /** The recorders other servers run (several servers); absent on SQLite, where there is one server. */
  otherScopes: OtherScopes | undefined;
  /** The media other servers hold (several servers); absent on SQLite. */
  recordingsElsewhere: RecordingsElsewhere | undefined;
}

/**
 * Whether this server is the one that exports the fleet's gauges on /metrics: the longest-running live
 * server; alone (SQLite) or not registered (not listening), this one.
 */
export function fleetGaugesReporter(deps: { db: Db; clock: Clock; serverId: string }): () => Promise<boolean> {
  const repository = new ServersRepository(deps.db.kysely);
  return async () => {
    const live = await repository.listSeenSince(new Date(deps.clock.now().getTime() - DEAD_AFTER_MS).toISOString());
    const [reporter] = live.sort((a, b) => a.started_at.localeCompare(b.started_at) || a.id.localeCompare(b.id));
    return reporter === undefined || reporter.id === deps.serverId;
  };
}

/**
 * This server among the others sharing a PostgreSQL database: registered in the servers table once
 * it listens (an app driven by inject alone is no server the others could call), beating until it
 * closes, reaching the recorders and media of the other servers, adopting a dead one's recorders.
 * On SQLite there is one server: it does not register, and nothing reaches out.
 */
export function createServersModule(deps: {
  config: Pick<Config, 'databaseUrl' | 'hostName' | 'internalUrl'>;
  db: Db;
  clock: Clock;
  keys: SecretKeys;
  log: FastifyBaseLogger;
  events: EventBus;
  /** Made before the modules: the scheduler's claimant id, so a dead server's claims are known from this table. */
  serverId: string;
  instances: InstancesService;
  fleetOfFolder: (folder: string) => InstancesService;
  alarms: AlarmsService;
  monitoring: MonitoringService;
}): ServerModule<ServersModuleService> {
  const { config, db, clock, log, instances, events } = deps;
  const repository = new ServersRepository(db.kysely);
  const heartbeat =
    db.dialect === 'postgres' && config.databaseUrl ? openHeartbeatConnection(config.databaseUrl) : null;
  const registry = new ServerRegistry(
    deps.serverId,
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
    (taken) => events.emit('lease_lost', taken),
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
  const internalRoutes = (app: AppInstance) =>
    registerInternalInstanceRoutes(app, { guard: calls.guard, fleets: () => [instances, ...adoption.fleets()] });
  if (db.dialect !== 'postgres')
    return {
      service: { registry, calls, owners, otherScopes: undefined, recordingsElsewhere: undefined },
      register: internalRoutes,
    };

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
  events.on('lease_lost', (taken) => {
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
  return {
    service: {
      registry,
      calls,
      owners,
      otherScopes: otherScopesThroughServers({ owners, calls, adopted: (scope) => adoption.fleetOf(scope) }),
      recordingsElsewhere: recordingsThroughServers({ registry, repository, calls }),
    },
    register(app) {
      // Registered once it listens, not when ready: an app driven by inject alone is no server the others could call.
      app.addHook('onListen', async () => {
        await registry.start();
        takeover.start();
      });
      app.addHook('onClose', async () => {
        await heartbeat?.close();
      });
      internalRoutes(app);
    },
    async close() {
      await leaseLost;
      await registry.stop();
      await takeover.stop();
      await adoption.close();
    },
  };
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
