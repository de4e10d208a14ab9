import { screen, waitFor, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { Job } from '../../../../contract/scheduler';
import { mockRecordingJob, schedulerMock } from '../../../../src/mocks/handlers/scheduler';
import { renderWithProviders, type RenderOptions } from '../../support/render';
import { server } from '../../support/server';
import SchedulingPage from '../../../../src/features/scheduling/SchedulingPage';
import { scaled } from '../../../../testkit/time-scale';

/** The mock's seeded mosques (src/mocks/handlers/config.ts). */
export const LONDON = 'lcm4r8k2p1';
export const EAST_LONDON = 'elm7q2w9z3';
export const AZHAR = 'azh3c5v8n6';

/** Thursday 26 November 2026, 10:00 UTC: the coming Friday is the 27th. */
export const NOW = new Date('2026-11-26T10:00:00.000Z');

/** Fake timers (that still run) on a fixed clock, for the 30 s refresh and the timing icons. */
export function useFixedClock(now: Date = NOW) {
  vi.useFakeTimers({
    shouldAdvanceTime: true,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  vi.setSystemTime(now);
}

/** user-event options under fake timers. */
export const fakeTimerUser: RenderOptions['userOptions'] = { advanceTimers: (ms) => vi.advanceTimersByTime(ms) };

/** /scheduling as admin, once the status card shows the scheduler's state. */
export async function openScheduling(options: RenderOptions = {}) {
  const rendered = renderWithProviders(<SchedulingPage />, { path: '/scheduling', as: 'admin', ...options });
  await screen.findByRole('heading', { name: 'Scheduling Management', level: 1 }, { timeout: scaled(15_000) });
  await statusCard().findByText(/^(Running|Stopped)$/);
  return rendered;
}

export function statusCard() {
  return within(screen.getByRole('region', { name: 'Scheduler Status' }));
}

/** A figure of the status card ("Total Jobs", "Active Schedules", "Next Recording"). */
export function figure(label: string) {
  return within(statusCard().getByRole('group', { name: label }));
}

export const upcomingTable = () => within(screen.getByRole('table', { name: 'Upcoming recordings' }));

/** The data rows of the upcoming table (the header row left out). */
export const upcomingRows = () => upcomingTable().getAllByRole('row').slice(1);

export function upcomingRow(mosqueName: string) {
  const tr = upcomingTable().getByText(mosqueName).closest('tr');
  if (!tr) throw new Error(`No upcoming row for ${mosqueName}`);
  return within(tr);
}

export const jobsList = () => within(screen.getByRole('list', { name: 'Scheduler jobs' }));
export const jobItem = (name: string) => within(jobsList().getByRole('listitem', { name }));

export const dialog = () => within(screen.getByRole('dialog'));

/** A notification (top right) with exactly this text. */
export const notification = (text: string) => screen.findByText(text, { selector: '.MuiAlert-message' });

/** Puts recording jobs in the mock scheduler: `count` mosques `Mosque 01`... starting an hour apart from `firstStart`. */
export function seedRecordings(
  count: number,
  firstStart = '2026-11-27T09:00:00.000Z',
  fields: Partial<Job> = {},
): Job[] {
  const jobs = Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(2, '0');
    return mockRecordingJob({
      // Ten characters (the mosque id's length) and unique up to 9,999: job ids are keys in the lists.
      mosque_id: `mosque${String(i + 1).padStart(4, '0')}`,
      mosque_name: `Mosque ${n}`,
      recording_start: new Date(Date.parse(firstStart) + i * 3_600_000).toISOString(),
      timezone: 'UTC',
      ...fields,
    });
  });
  schedulerMock().jobs.push(...jobs);
  return jobs;
}

/** Counts the requests to each path from now on (until the test's listeners are removed). */
export function countRequests(paths: string[]) {
  const counts: Record<string, number> = Object.fromEntries(paths.map((path) => [path, 0]));
  server.events.on('request:start', ({ request }) => {
    const path = new URL(request.url).pathname;
    if (path in counts) counts[path] += 1;
  });
  return counts;
}

/** Answers the open confirmation dialog with its `button` (e.g. "Cancel Recording", "Stop"), and waits for it to close. */
export async function confirmWith(user: { click(element: Element): Promise<void> }, button: string) {
  const open = await screen.findByRole('dialog');
  await user.click(within(open).getByRole('button', { name: button }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
}
