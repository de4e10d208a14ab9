import {
  cancelResponseSchema,
  jobIdParamsSchema,
  jobsQuerySchema,
  jobsResponseSchema,
  restoreResponseSchema,
  schedulerActionResponseSchema,
  schedulerPrayerTimesResponseSchema,
  schedulerStatusResponseSchema,
  scheduleRequestSchema,
  scheduleResponseSchema,
  upcomingQuerySchema,
  upcomingResponseSchema,
} from '../../../contract/scheduler';
import { fridaysQuerySchema, fridaysResponseSchema } from '../../../contract/fridays';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import type { SchedulerService } from './service';

const session = { access: 'session' } as const;
const actorOf = (request: Parameters<typeof sessionOf>[0]) => {
  const { id, username } = sessionOf(request).user;
  return { id, username };
};

/** SPEC.md section 7, Scheduler. */
export function registerSchedulerRoutes(app: AppInstance, scheduler: SchedulerService): void {
  app.get('/api/scheduler/status', { config: session, schema: { response: { 200: schedulerStatusResponseSchema } } }, async () => ({
    success: true as const,
    data: await scheduler.status(),
  }));

  app.get(
    '/api/scheduler/upcoming',
    { config: session, schema: { querystring: upcomingQuerySchema, response: { 200: upcomingResponseSchema } } },
    async (request) => ({ success: true as const, data: { upcoming_recordings: await scheduler.upcoming(request.query.limit) } }),
  );

  app.get(
    '/api/scheduler/prayer-times',
    { config: session, schema: { response: { 200: schedulerPrayerTimesResponseSchema } } },
    async () => ({ success: true as const, data: { prayer_times: await scheduler.prayerTimes() } }),
  );

  app.get(
    '/api/scheduler/jobs',
    { config: session, schema: { querystring: jobsQuerySchema, response: { 200: jobsResponseSchema } } },
    async (request) => ({ success: true as const, data: { jobs: await scheduler.jobs(request.query.scope) } }),
  );

  app.post(
    '/api/scheduler/schedule-friday',
    { config: session, schema: { body: scheduleRequestSchema, response: { 200: scheduleResponseSchema } } },
    async (request) => {
      const result = await scheduler.scheduleFriday(request.body, actorOf(request));
      const message =
        `Scheduled ${result.scheduled} Friday recording(s): ${result.created} new, ${result.updated} updated, ${result.unchanged} unchanged` +
        (result.skipped.length > 0 ? `; ${result.skipped.length} mosque(s) skipped` : '');
      return { success: true as const, message, data: result };
    },
  );

  app.post('/api/scheduler/start', { config: session, schema: { response: { 200: schedulerActionResponseSchema } } }, async (request) => ({
    success: true as const,
    message: 'Scheduler started',
    data: await scheduler.start(actorOf(request)),
  }));

  app.post('/api/scheduler/stop', { config: session, schema: { response: { 200: schedulerActionResponseSchema } } }, async (request) => ({
    success: true as const,
    message: 'Scheduler stopped',
    data: await scheduler.stop(actorOf(request)),
  }));

  app.post(
    '/api/scheduler/cancel/:job_id',
    { config: session, schema: { params: jobIdParamsSchema, response: { 200: cancelResponseSchema } } },
    async (request) => {
      const { job, message } = await scheduler.cancel(request.params.job_id, actorOf(request));
      return { success: true as const, message, data: job };
    },
  );

  app.post(
    '/api/scheduler/jobs/:job_id/restore',
    { config: session, schema: { params: jobIdParamsSchema, response: { 200: restoreResponseSchema } } },
    async (request) => {
      const { job, message } = await scheduler.restore(request.params.job_id, actorOf(request));
      return { success: true as const, message, data: job };
    },
  );

  app.get(
    '/api/scheduler/fridays',
    { config: session, schema: { querystring: fridaysQuerySchema, response: { 200: fridaysResponseSchema } } },
    async (request) => ({ success: true as const, data: await scheduler.fridays(request.query.date) }),
  );
}
