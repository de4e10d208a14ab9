import type { FastifyBaseLogger } from 'fastify';
import { ALARMS_MAX_LIMIT, type Alarm, type ListedAlarm } from '../../../contract/alarms';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { ServerModule } from '../../lib/server-module';
import type { ActivityService } from '../activity';
import type { LiveHub } from '../live';
import type { MonitoringService } from '../monitoring';
import type { MosquesService } from '../mosques';
import { AlarmDeliveries, type DeliveryChannel, type RetryTimer } from './delivery';
import { AlarmDeliveriesRepository } from './delivery-repository';
import { registerAlarmHealth } from './health';
import { AlarmsRepository } from './repository';
import { registerAlarmRoutes } from './routes';
import { AlarmsService, toAlarm } from './service';
import { emailChannel } from './email';
import { NotificationPolicy } from './notification-policy';
import { SilencesRepository, SilencesService } from './silences';
import { webhookChannel } from './webhook';

export { AlarmsService, type AlarmCause } from './service';

/** Retry timing of outbound deliveries (tests shorten it). */
export interface AlarmDeliveryOptions {
  timer?: RetryTimer;
  retryDelaysMs?: number[];
  sweepMs?: number;
}

/** The parts of the module its routes use. */
export interface AlarmsModule {
  alarms: AlarmsService;
  deliveries: AlarmDeliveries;
  silences: SilencesService;
  /** Takes over deliveries owed and not held by a live server, and starts the delivery and notification sweeps. */
  start(): Promise<void>;
  /** Stops the sweep and retries, and waits for sends in progress (the database is about to close). */
  close(): Promise<void>;
  /** The list the API returns: each alarm with the state of its deliveries. */
  list(status: 'open' | 'all', limit: number): Promise<ListedAlarm[]>;
}

/** The settings of the outbound notifications. */
type AlarmSettings = Pick<
  Config,
  | 'alarmWebhookUrl'
  | 'alarmWebhookSecret'
  | 'smtpUrl'
  | 'alarmEmailTo'
  | 'alarmEmailFrom'
  | 'alarmGroupWindowMs'
  | 'alarmRepeatIntervalMs'
>;

export interface AlarmsModuleDeps {
  config: AlarmSettings;
  db: Db;
  clock: Clock;
  activity: ActivityService;
  hub: LiveHub;
  monitoring: MonitoringService;
  log: FastifyBaseLogger;
  /** The mosques: silences name and check the mosque they hold. */
  mosques: Pick<MosquesService, 'find'>;
  delivery?: AlarmDeliveryOptions;
}

function channelsOf(config: AlarmSettings): DeliveryChannel[] {
  const channels: DeliveryChannel[] = [];
  if (config.alarmWebhookUrl)
    channels.push(webhookChannel({ url: config.alarmWebhookUrl, secret: config.alarmWebhookSecret }));
  if (config.smtpUrl)
    channels.push(emailChannel({ smtpUrl: config.smtpUrl, to: config.alarmEmailTo, from: config.alarmEmailFrom }));
  return channels;
}

/** Alarms with their live feed, outbound delivery (webhook, e-mail), health term, /metrics gauge and routes. */
export function createAlarmsModule(deps: AlarmsModuleDeps): ServerModule<AlarmsService> {
  const parts = alarmsParts(deps);
  return {
    service: parts.alarms,
    register: (app) => registerAlarmRoutes(app, parts),
    start: () => parts.start(),
    close: () => parts.close(),
  };
}

function alarmsParts(deps: AlarmsModuleDeps): AlarmsModule {
  const { db: database, clock, hub, log } = deps;
  const db = database.kysely;
  const repository = new AlarmsRepository(db);
  const alarms = new AlarmsService({
    repository,
    clock,
    activity: deps.activity,
    publish: (message) => hub.publish(message),
    log,
  });
  hub.addGreeting(async () => ({ type: 'alarms', data: { alarms: await alarms.list('open', ALARMS_MAX_LIMIT) } }));
  registerAlarmHealth(deps.monitoring, alarms);

  const deliveryRows = new AlarmDeliveriesRepository(db, database.dialect);
  const deliveries = new AlarmDeliveries({
    repository: deliveryRows,
    channels: channelsOf(deps.config),
    clock,
    findAlarm: async (id): Promise<Alarm | undefined> => {
      const row = await repository.findById(id);
      return row && toAlarm(row);
    },
    log,
    ...deps.delivery,
  });
  const silences = new SilencesService({
    repository: new SilencesRepository(db),
    clock,
    activity: deps.activity,
    mosqueName: async (id) => (await deps.mosques.find(id))?.name ?? null,
  });
  // Without a channel there is nobody to notify: no policy, no sweep.
  const policy = deliveries.enabled
    ? new NotificationPolicy({
        clock,
        deliveries,
        deliveryRows,
        silences,
        openAlarms: () => repository.list('open', ALARMS_MAX_LIMIT),
        toAlarm,
        log,
        groupWindowMs: deps.config.alarmGroupWindowMs,
        repeatIntervalMs: deps.config.alarmRepeatIntervalMs,
      })
    : undefined;
  alarms.onChange((alarm, change) => {
    if (change !== 'acknowledged') policy?.notice(alarm, change);
  });

  return {
    alarms,
    deliveries,
    silences,
    async start() {
      await deliveries.resume();
      policy?.start();
    },
    async close() {
      await policy?.close();
      await deliveries.close();
    },
    async list(status, limit) {
      const list = await alarms.list(status, limit);
      const byAlarm = await deliveryRows.forAlarms(list.map((alarm) => alarm.id));
      return list.map((alarm) => ({ ...alarm, deliveries: byAlarm.get(alarm.id) ?? [] }));
    },
  };
}
