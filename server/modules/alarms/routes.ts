import { alarmRoutes } from '../../../contract/routes/alarms';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import type { AlarmsModule } from './index';

/** GET /api/alarms, POST /api/alarms/{id}/acknowledge, the silences: any signed-in operator. */
export function registerAlarmRoutes(app: AppInstance, { alarms, list, silences }: AlarmsModule): void {
  handle(app, alarmRoutes.list, async (request) => ({
    success: true as const,
    data: { alarms: await list(request.query.status, request.query.limit) },
  }));

  handle(app, alarmRoutes.acknowledge, async (request) => {
    const { id, username } = sessionOf(request).user;
    const alarm = await alarms.acknowledge(request.params.id, { id, username });
    return { success: true as const, message: 'Alarm acknowledged', data: alarm };
  });

  handle(app, alarmRoutes.silences, async (request) => ({
    success: true as const,
    data: { silences: await silences.list(request.query.status) },
  }));

  handle(app, alarmRoutes.silence, async (request) => {
    const { id, username } = sessionOf(request).user;
    const silence = await silences.create(request.body, { id, username });
    return { success: true as const, message: `Notifications silenced until ${silence.ends_at}`, data: silence };
  });

  handle(app, alarmRoutes.liftSilence, async (request) => {
    const { id, username } = sessionOf(request).user;
    const silence = await silences.lift(request.params.id, { id, username });
    return { success: true as const, message: 'Silence lifted', data: silence };
  });
}
