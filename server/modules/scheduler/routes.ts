import { fridaysPageOf } from '../../../contract/fridays';
import { prayerTimesPageOf } from '../../../contract/prayer-time-list';
import { schedulerRoutes } from '../../../contract/routes/scheduler';
import { jobsPageOf, upcomingResponseSchema, type UpcomingRecording } from '../../../contract/scheduler';
import { encodedBodies, sendEncoded } from '../../lib/encoded-bodies';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import type { SchedulerService } from './service';
import { countOf } from '../../../contract/plural';

const actorOf = (request: Parameters<typeof sessionOf>[0]) => {
  const { id, username } = sessionOf(request).user;
  return { id, username };
};

/** docs/reference.md section 7, Scheduler. */
export function registerSchedulerRoutes(app: AppInstance, scheduler: SchedulerService): void {
  handle(app, schedulerRoutes.status, async () => ({ success: true as const, data: await scheduler.status() }));

  // Every console polls this: the service shares one list per limit between readers until a job changes.
  const upcomingBody = encodedBodies((list: UpcomingRecording[]) =>
    upcomingResponseSchema.encode({ success: true, data: { upcoming_recordings: list } }),
  );
  handle(app, schedulerRoutes.upcoming, async (request, reply) =>
    sendEncoded(reply, upcomingBody(await scheduler.upcoming(request.query.limit))),
  );

  // With a page query (Scheduling's Prayer Times at fleet size), one page and the count of every match.
  handle(app, schedulerRoutes.prayerTimes, async (request) => ({
    success: true as const,
    data: prayerTimesPageOf(await scheduler.prayerTimes(), request.query),
  }));

  // With limit or offset (Active Jobs at fleet size), one page in order: 10,000 jobs were 7.8 MB a poll.
  handle(app, schedulerRoutes.jobs, async (request) => ({
    success: true as const,
    data: jobsPageOf(await scheduler.jobs(request.query.scope), request.query),
  }));

  handle(app, schedulerRoutes.scheduleFriday, async (request) => {
    const result = await scheduler.scheduleFriday(request.body, actorOf(request));
    const message =
      `Scheduled ${countOf(result.scheduled, 'Friday recording')}: ${result.created} new, ${result.updated} updated, ${result.unchanged} unchanged` +
      (result.skipped.length > 0 ? `; ${countOf(result.skipped.length, 'mosque')} skipped` : '');
    return { success: true as const, message, data: result };
  });

  handle(app, schedulerRoutes.start, async (request) => ({
    success: true as const,
    message: 'Scheduler started',
    data: await scheduler.start(actorOf(request)),
  }));

  handle(app, schedulerRoutes.stop, async (request) => ({
    success: true as const,
    message: 'Scheduler stopped',
    data: await scheduler.stop(actorOf(request)),
  }));

  handle(app, schedulerRoutes.cancel, async (request) => {
    const { job, message } = await scheduler.cancel(request.params.job_id, actorOf(request));
    return { success: true as const, message, data: job };
  });

  handle(app, schedulerRoutes.restore, async (request) => {
    const { job, message } = await scheduler.restore(request.params.job_id, actorOf(request));
    return { success: true as const, message, data: job };
  });

  handle(app, schedulerRoutes.fridays, async (request) => {
    const { friday, fridays } = await scheduler.fridays(request.query.date);
    return { success: true as const, data: { friday, ...fridaysPageOf(fridays, request.query) } };
  });
}
