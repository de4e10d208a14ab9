import { fridaysQuerySchema, fridaysResponseSchema } from '../fridays';
import { endpoint } from '../endpoint';
import { schedulerPrayerTimesQuerySchema } from '../prayer-time-list';
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
} from '../scheduler';

/** docs/reference.md section 7, Scheduler: any operator. */
export const schedulerRoutes = {
  status: endpoint({
    method: 'GET',
    path: '/api/scheduler/status',
    access: 'session',
    response: schedulerStatusResponseSchema,
  }),
  upcoming: endpoint({
    method: 'GET',
    path: '/api/scheduler/upcoming',
    access: 'session',
    query: upcomingQuerySchema,
    response: upcomingResponseSchema,
  }),
  prayerTimes: endpoint({
    method: 'GET',
    path: '/api/scheduler/prayer-times',
    access: 'session',
    query: schedulerPrayerTimesQuerySchema,
    response: schedulerPrayerTimesResponseSchema,
  }),
  jobs: endpoint({
    method: 'GET',
    path: '/api/scheduler/jobs',
    access: 'session',
    query: jobsQuerySchema,
    response: jobsResponseSchema,
  }),
  fridays: endpoint({
    method: 'GET',
    path: '/api/scheduler/fridays',
    access: 'session',
    query: fridaysQuerySchema,
    response: fridaysResponseSchema,
  }),
  scheduleFriday: endpoint({
    method: 'POST',
    path: '/api/scheduler/schedule-friday',
    access: 'session',
    body: scheduleRequestSchema,
    response: scheduleResponseSchema,
  }),
  start: endpoint({
    method: 'POST',
    path: '/api/scheduler/start',
    access: 'session',
    response: schedulerActionResponseSchema,
  }),
  stop: endpoint({
    method: 'POST',
    path: '/api/scheduler/stop',
    access: 'session',
    response: schedulerActionResponseSchema,
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/api/scheduler/cancel/:job_id',
    access: 'session',
    params: jobIdParamsSchema,
    response: cancelResponseSchema,
  }),
  restore: endpoint({
    method: 'POST',
    path: '/api/scheduler/jobs/:job_id/restore',
    access: 'session',
    params: jobIdParamsSchema,
    response: restoreResponseSchema,
  }),
};
