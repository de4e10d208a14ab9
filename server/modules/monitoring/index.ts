import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { MONITORING_POLL_MS } from '../../../contract/monitoring';
import type { Config } from '../../config';
import { sqlitePath, type Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { ServerModule } from '../../lib/server-module';
import type { ActivityService } from '../activity';
import type { LiveHub } from '../live';
import { diskSpaceCheck } from './health';
import { registerMonitoringRoutes } from './routes';
import { MonitoringService } from './service';

/** What other modules and the app use of monitoring; the rest stays inside the module. */
export { registerRequestMetrics, unmatchedRequestRecorder } from './routes';
export { MonitoringService } from './service';

/**
 * Health and figures: the checks of the disks and the activity log, the watcher that re-checks health
 * and pushes changes to the live feed, and the monitoring routes and /metrics.
 */
export function createMonitoringModule(deps: {
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'metricsToken'>;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  hub: LiveHub;
  activity: Pick<ActivityService, 'healthCheck'>;
  /** This server's id in the servers table, on its Prometheus series. */
  serverId: string;
  /** Whether this server exports the fleet's gauges (the servers module's `fleetGaugesReporter`). */
  reportsFleet: () => Promise<boolean>;
  /** How often health is re-checked and changes pushed to the live feed (default 30 s; 0 = never, tests call refresh()). */
  healthCheckIntervalMs?: number;
  /** How long one component check may take before it counts as unhealthy (default 5 s). */
  healthCheckTimeoutMs?: number;
}): ServerModule<MonitoringService> {
  const { config, db } = deps;
  const service = new MonitoringService({
    db: db.kysely,
    clock: deps.clock,
    hub: deps.hub,
    log: deps.log,
    checkTimeoutMs: deps.healthCheckTimeoutMs,
    serverId: deps.serverId,
    reportsFleet: deps.reportsFleet,
  });
  return {
    service,
    register(app) {
      service.registerHealthCheck(
        'recordings_disk',
        diskSpaceCheck('recordings', path.join(config.dataDir, 'recordings')),
      );
      if (db.dialect === 'sqlite')
        service.registerHealthCheck('database_disk', diskSpaceCheck('database', path.dirname(sqlitePath(config))));
      service.registerHealthCheck('activity_log', deps.activity.healthCheck);
      registerMonitoringRoutes(app, { monitoring: service, metricsToken: config.metricsToken });
    },
    start: () => service.start(deps.healthCheckIntervalMs ?? MONITORING_POLL_MS),
    close: () => service.stop(),
  };
}
