import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import packageJson from '../../../package.json' with { type: 'json' };
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import { ServerRegistry } from './registry';
import { ServersRepository } from './repository';

export { DEAD_AFTER_MS, HEARTBEAT_MS, ServerRegistry } from './registry';
export type { ServerRow } from './repository';

/** This server's entry in the servers table, for a driver of `scope`. Registered once the app listens. */
export function createServerRegistry(deps: { config: Config; db: Db; clock: Clock; log: FastifyBaseLogger; scope: string }): ServerRegistry {
  return new ServerRegistry(
    new ServersRepository(deps.db.kysely),
    deps.clock,
    { host: os.hostname(), internalAddress: deps.config.internalUrl, version: packageJson.version, scope: deps.scope },
    deps.log,
  );
}
