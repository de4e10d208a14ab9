import { alarmRoutes } from '../../../contract/routes/activity';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import type { AlarmsModule } from './index';

/** GET /api/alarms, POST /api/alarms/{id}/acknowledge: any signed-in operator. */
export function registerAlarmRoutes(app: AppInstance, { alarms, list }: AlarmsModule): void {
  handle(app, alarmRoutes.list, async (request) => ({
    success: true as const,
    data: { alarms: await list(request.query.status, request.query.limit) },
  }));

  handle(app, alarmRoutes.acknowledge, async (request) => {
    const { id, username } = sessionOf(request).user;
    const alarm = await alarms.acknowledge(request.params.id, { id, username });
    return { success: true as const, message: 'Alarm acknowledged', data: alarm };
  });
}
