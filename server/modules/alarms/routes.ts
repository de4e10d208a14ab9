import { acknowledgeAlarmResponseSchema, alarmIdParamsSchema, alarmsQuerySchema, alarmsResponseSchema } from '../../../contract/alarms';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import type { AlarmsModule } from './index';

const session = { access: 'session' } as const;

/** GET /api/alarms, POST /api/alarms/{id}/acknowledge: any signed-in operator. */
export function registerAlarmRoutes(app: AppInstance, { alarms, list }: AlarmsModule): void {
  app.get('/api/alarms', { config: session, schema: { querystring: alarmsQuerySchema, response: { 200: alarmsResponseSchema } } }, async (request) => ({
    success: true as const,
    data: { alarms: await list(request.query.status, request.query.limit) },
  }));

  app.post(
    '/api/alarms/:id/acknowledge',
    { config: session, schema: { params: alarmIdParamsSchema, response: { 200: acknowledgeAlarmResponseSchema } } },
    async (request) => {
      const { id, username } = sessionOf(request).user;
      const alarm = await alarms.acknowledge(request.params.id, { id, username });
      return { success: true as const, message: 'Alarm acknowledged', data: alarm };
    },
  );
}
