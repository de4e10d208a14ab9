import {
  acknowledgeAlarmResponseSchema,
  alarmIdParamsSchema,
  alarmsQuerySchema,
  alarmsResponseSchema,
  createSilenceBodySchema,
  silenceIdParamsSchema,
  silenceResponseSchema,
  silencesQuerySchema,
  silencesResponseSchema,
} from '../alarms';
import { endpoint } from '../endpoint';

/** Alarms: any signed-in operator lists and acknowledges them, and silences their notifications for a time. */
export const alarmRoutes = {
  list: endpoint({
    method: 'GET',
    path: '/api/alarms',
    access: 'session',
    query: alarmsQuerySchema,
    response: alarmsResponseSchema,
  }),
  acknowledge: endpoint({
    method: 'POST',
    path: '/api/alarms/:id/acknowledge',
    access: 'session',
    params: alarmIdParamsSchema,
    response: acknowledgeAlarmResponseSchema,
  }),
  silences: endpoint({
    method: 'GET',
    path: '/api/alarms/silences',
    access: 'session',
    query: silencesQuerySchema,
    response: silencesResponseSchema,
  }),
  silence: endpoint({
    method: 'POST',
    path: '/api/alarms/silences',
    access: 'session',
    body: createSilenceBodySchema,
    response: silenceResponseSchema,
    status: 201,
  }),
  liftSilence: endpoint({
    method: 'DELETE',
    path: '/api/alarms/silences/:id',
    access: 'session',
    params: silenceIdParamsSchema,
    response: silenceResponseSchema,
  }),
};
