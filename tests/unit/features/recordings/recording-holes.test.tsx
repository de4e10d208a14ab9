import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addMockInstances, mockInstance, mockRecording } from '../../../../src/mocks/handlers/instances';
import { mockGapsOfEveryCause } from '../../../../src/mocks/handlers/recordings';
import { store } from '../../../../src/mocks/store';
import RecordingsPage from '../../../../src/features/recordings/RecordingsPage';
import { renderPage } from '../../support/render';
import { scaled } from '../../../../testkit/time-scale';

const WINDOW_START = '2026-01-16T11:00:00.000Z';

/** East London Mosque: partial, with a hole of every cause; London Central Mosque: stopped by admin 40 minutes in. */
function seed() {
  const holed = addMockInstances(
    mockInstance({ mosque_id: 'elm7q2w9z3', state: 'terminated', launch_time: WINDOW_START }),
  )[0];
  store.recordings.push(
    mockRecording(holed, {
      status: 'partial',
      expected_seconds: 7200,
      covered_seconds: 6934,
      duration_seconds: 6934,
      gaps: mockGapsOfEveryCause(WINDOW_START),
      reason: 'Recorded 1 h 56 min of 2 h (96%)',
    }),
  );
  const stopped = addMockInstances(
    mockInstance({ mosque_id: 'lcm4r8k2p1', state: 'terminated', launch_time: WINDOW_START }),
  )[0];
  store.recordings.push(
    mockRecording(stopped, {
      status: 'partial',
      expected_seconds: 7200,
      covered_seconds: 2400,
      duration_seconds: 2400,
      ended_at: '2026-01-16T11:40:00.000Z',
      reason: 'Stopped by admin',
    }),
  );
}

/** Two recordings still going, 20 minutes into 2 h windows: one with a copy 5 minutes behind at its live edge, one without a gap. */
function seedRecording() {
  const [behind, clean] = addMockInstances(
    mockInstance({ mosque_id: 'elm7q2w9z3', state: 'running', launch_time: WINDOW_START }),
    mockInstance({ mosque_id: 'lcm4r8k2p1', state: 'running', launch_time: WINDOW_START }),
  );
  const recording = { status: 'recording', expected_seconds: 7200, duration_seconds: null, ended_at: null } as const;
  store.recordings.push(
    mockRecording(behind, {
      ...recording,
      covered_seconds: 900,
      gaps: [
        {
          start: '2026-01-16T11:15:00.000Z',
          end: '2026-01-16T11:20:00.000Z',
          cause: 'recorder_overloaded',
          reason: "Recorder behind: ffmpeg's output is 300 s behind the stream",
          content_lost_seconds: 0,
        },
      ],
    }),
    mockRecording(clean, { ...recording, covered_seconds: 1200, gaps: [] }),
  );
}

const table = () => within(screen.getByRole('table', { name: 'Recordings' }));
const row = (mosque: string) => within(table().getByText(mosque).closest('tr') as HTMLElement);

describe('holes and stops in the recordings library', { timeout: scaled(60_000) }, () => {
  // The operator's clock is not UTC here, so each instant shows on it and in UTC.
  beforeEach(() => {
    vi.stubEnv('TZ', 'Asia/Karachi');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('lists each hole of 10 s or more with its start and end (local and UTC), cause and content lost', async () => {
    seed();
    const { user } = renderPage(<RecordingsPage />, { path: '/recordings', as: 'operator' });
    await screen.findByText('East London Mosque', {}, { timeout: scaled(40_000) });
    const toggle = row('East London Mosque').getByRole('button', { name: '10 holes · 340 s lost' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('table', { name: /^Holes of/ })).not.toBeInTheDocument();

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const holes = within(screen.getByRole('table', { name: 'Holes of East London Mosque on 2026-01-16' }));
    const lines = holes.getAllByRole('row').slice(1);
    expect(lines.map((line) => within(line).getAllByRole('cell')[2].querySelector('p')?.textContent)).toEqual([
      'Not live yet',
      'Stream dropped',
      'Stream stalled',
      'Address refused',
      'Encoder restarted',
      'Recorder down',
      'Recorder late',
      'Recorder overloaded',
      'Server down',
      'Store unreachable',
    ]);
    const stall = within(lines[2]);
    expect(stall.getByText('11:20:00 UTC')).toBeInTheDocument();
    expect(stall.getByText('11:21:10 UTC')).toBeInTheDocument();
    expect(stall.getByText('4:20:00 PM GMT+5')).toBeInTheDocument();
    expect(stall.getByText('4:21:10 PM GMT+5')).toBeInTheDocument();
    expect(stall.getByText('No new segment for 70 s: the playlist stopped moving')).toBeInTheDocument();
    expect(stall.getByText('70 s')).toBeInTheDocument();
    expect(within(lines[0]).getByText('None')).toBeInTheDocument();
    // The 6 s join at 4200 s is no hole.
    expect(holes.queryByText('The stream dropped (HTTP 502)')).not.toBeInTheDocument();

    await user.click(toggle);
    expect(screen.queryByRole('table', { name: /^Holes of/ })).not.toBeInTheDocument();
  });

  it('draws the part of a window still to come as neither recorded nor lost', async () => {
    seedRecording();
    renderPage(<RecordingsPage />, { path: '/recordings', as: 'operator' });
    await screen.findByText('London Central Mosque', {}, { timeout: scaled(40_000) });
    const behind = row('East London Mosque');
    // Measured to 20 min of 120: 15 min of media, then 5 min of a copy behind its live edge.
    expect(behind.getByLabelText(/^12\.5% covered so far \(15 min of 2 h 0 min\); 1 gap$/)).toBeInTheDocument();
    expect(behind.getByTestId('coverage-ahead')).toHaveStyle({ left: '16.666666666666664%' });
    const clean = row('London Central Mosque');
    expect(clean.getByLabelText(/^16\.6% covered so far \(20 min of 2 h 0 min\)$/)).toBeInTheDocument();
    expect(clean.getByTestId('coverage-ahead')).toHaveStyle({ left: '16.666666666666664%' });
    // Nothing of the window still to come is drawn as lost.
    expect(clean.queryByTestId('coverage-unaccounted')).not.toBeInTheDocument();
  });

  it('says who stopped a recording instead of calling it partial, and greys the window after the stop', async () => {
    seed();
    renderPage(<RecordingsPage />, { path: '/recordings', as: 'operator' });
    await screen.findByText('London Central Mosque', {}, { timeout: scaled(40_000) });
    const stopped = row('London Central Mosque');
    expect(stopped.getByText('Stopped by admin')).toBeInTheDocument();
    expect(stopped.queryByText('Partial')).not.toBeInTheDocument();
    expect(stopped.queryByRole('button', { name: /holes?/ })).not.toBeInTheDocument();
    expect(stopped.getByTestId('coverage-stopped')).toHaveStyle({ left: '33.33333333333333%' });
    expect(row('East London Mosque').getByText('Partial')).toBeInTheDocument();
    expect(row('East London Mosque').queryByTestId('coverage-stopped')).not.toBeInTheDocument();
  });
});
