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
import { ServerRegistry } from './registry';
import { otherScopesThroughServers } from './remote-fleet';
import { recordingsThroughServers } from './remote-media';
import { ServersRepository } from './repository';
import { StrandedScopes } from './stranded';
import type { AlarmsService } from '../alarms';

export { DEAD_AFTER_MS, HEARTBEAT_MS, ServerRegistry } from './registry';
export type { ServerRow } from './repository';

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
  },
): ServersModule {
  const { config, db, clock, log, instances } = deps;
  const repository = new ServersRepository(db.kysely);
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
    app.addHook('onListen', () => registry.start());
    app.addHook('preClose', async () => {
      await registry.stop();
      await adoption.close();
    });
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
    registry.onBeat = async () => {
      await adoption.pass();
      await stranded.pass();
    };
  }
  registerInternalInstanceRoutes(app, { guard: calls.guard, fleets: () => [instances, ...adoption.fleets()] });
  registerInternalRecordingRoutes(app, { guard: calls.guard, library: deps.library, store: deps.store });
  return { registry, calls, owners };
}
