import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alarmsMock, raiseMockAlarm } from '../../../../src/mocks/handlers/alarms';
import { renderApp } from '../../support/render';
import { scaled } from '../../../../testkit/time-scale';

/** Alarms of two Fridays: a pre-flight on the Thursday before the first, a late stall on the Friday evening of the second. */
function seedTwoFridays() {
  alarmsMock().length = 0;
  const at = (raised_at: string, resolved = false) => ({ raised_at, resolved_at: resolved ? raised_at : null });
  raiseMockAlarm({
    id: 'a-pre',
    kind: 'preflight',
    severity: 'critical',
    message: 'The stream could not be resolved',
    mosque_name: 'Masjid Al-Huda',
    ...at('2026-11-19T21:00:00.000Z', true),
  });
  raiseMockAlarm({
    id: 'a-fail',
    kind: 'capture_failed',
    severity: 'critical',
    message: 'No media was recorded',
    mosque_name: 'Masjid Al-Huda',
    ...at('2026-11-20T13:40:00.000Z', true),
  });
  raiseMockAlarm({
    id: 'a-stall1',
    kind: 'stall',
    severity: 'warning',
    message: 'No media for 70 s',
    mosque_name: 'Central Mosque',
    ...at('2026-11-27T11:52:00.000Z'),
  });
  raiseMockAlarm({
    id: 'a-stall2',
    kind: 'stall',
    severity: 'warning',
    message: 'No media for 90 s',
    mosque_name: 'East London Mosque',
    ...at('2026-11-27T23:10:00.000Z'),
  });
  raiseMockAlarm({
    id: 'a-part',
    kind: 'capture_partial',
    severity: 'warning',
    message: 'Recorded 1 h of 2 h',
    mosque_name: 'Central Mosque',
    ...at('2026-11-27T13:45:00.000Z'),
  });
}

const fridayGroup = (name: RegExp) => within(screen.getByRole('list', { name }));

describe('the alarm list by Friday', { timeout: scaled(30_000) }, () => {
  it('groups alarms under their Friday, newest first, each header counting its kinds', async () => {
    seedTwoFridays();
    const { user } = await renderApp('/alarms', { as: 'operator' });
    await screen.findByRole('listitem', { name: 'No media: East London Mosque' });
    await user.click(screen.getByRole('button', { name: 'All' }));
    await screen.findByRole('listitem', { name: 'Capture failed: Masjid Al-Huda' });

    const groups = within(screen.getByRole('list', { name: 'Alarms' })).getAllByRole('list');
    expect(groups.map((group) => group.getAttribute('aria-label'))).toEqual([
      'Friday 27 November 2026: 3 alarms (No media: 2, Capture partial: 1)',
      'Friday 20 November 2026: 2 alarms (Capture failed: 1, Pre-flight check failed: 1)',
    ]);

    expect(
      within(screen.getByRole('list', { name: /^Friday 27 November 2026/ })).getByText('No media: 2'),
    ).toBeInTheDocument();
    const latest = fridayGroup(/^Friday 27 November 2026/);
    // Newest first inside the Friday; an alarm raised late on Friday evening (UTC) stays with that Friday.
    expect(latest.getAllByRole('listitem', { name: /: / }).map((item) => item.getAttribute('aria-label'))).toEqual([
      'No media: East London Mosque',
      'Capture partial: Central Mosque',
      'No media: Central Mosque',
    ]);
    // Thursday's pre-flight failure belongs to the Friday it warned about.
    const earlier = fridayGroup(/^Friday 20 November 2026/);
    expect(earlier.getByRole('listitem', { name: 'Pre-flight check failed: Masjid Al-Huda' })).toBeInTheDocument();
    expect(earlier.queryByRole('listitem', { name: /Central Mosque/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Open' }));
    await screen.findByRole('list', { name: /^Friday 27 November 2026/ });
    expect(screen.queryByRole('list', { name: /^Friday 20 November 2026/ })).not.toBeInTheDocument();
  });

  it('files a one-off capture under its own day, apart from the Friday, and a scheduled one under its Friday', async () => {
    alarmsMock().length = 0;
    raiseMockAlarm({
      id: 'a-sunday',
      kind: 'capture_partial',
      severity: 'warning',
      message: 'Recorded 20 min of 30 min',
      mosque_name: 'Central Mosque',
      instance_id: 'i-adhoc',
      raised_at: '2026-11-29T10:00:00.000Z',
    });
    raiseMockAlarm({
      id: 'a-friday',
      kind: 'stall',
      severity: 'warning',
      message: 'No media for 70 s',
      mosque_name: 'East London Mosque',
      instance_id: 'i-friday',
      job_id: 'friday-elm7q2w9z3-2026-11-27',
      raised_at: '2026-11-27T12:00:00.000Z',
    });
    // A recording scheduled for a chosen time (a launch with start_at) whose launch failed: no instance, a one-off job.
    raiseMockAlarm({
      id: 'a-sunday-scheduled',
      kind: 'launch_failed',
      severity: 'critical',
      message: 'The launch failed after 3 attempts',
      mosque_name: 'London Central Mosque',
      job_id: 'oneoff-3f2a9c1b7d04',
      raised_at: '2026-11-29T09:00:00.000Z',
    });
    // Friday's outcome settled after midnight: still that Friday's, not the next week's.
    raiseMockAlarm({
      id: 'a-friday-late',
      kind: 'capture_partial',
      severity: 'warning',
      message: 'Recorded 1 h of 2 h',
      mosque_name: 'East London Mosque',
      instance_id: 'i-friday',
      job_id: 'friday-elm7q2w9z3-2026-11-27',
      raised_at: '2026-11-28T00:30:00.000Z',
    });
    await renderApp('/alarms', { as: 'operator' });
    await screen.findByRole('listitem', { name: 'No media: East London Mosque' });
    const groups = within(screen.getByRole('list', { name: 'Alarms' })).getAllByRole('list');
    expect(groups.map((group) => group.getAttribute('aria-label'))).toEqual([
      'Sunday 29 November 2026 · one-off captures: 2 alarms (Launch failed: 1, Capture partial: 1)',
      'Friday 27 November 2026: 2 alarms (No media: 1, Capture partial: 1)',
    ]);
  });
});
