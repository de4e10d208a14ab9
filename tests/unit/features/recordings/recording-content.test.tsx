import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { addMockInstances, mockInstance, mockRecording } from '../../../../src/mocks/handlers/instances';
import { store } from '../../../../src/mocks/store';
import RecordingsPage from '../../../../src/features/recordings/RecordingsPage';
import { renderPage } from '../../support/render';
import { scaled } from '../../../../testkit/time-scale';

const WINDOW_START = '2026-01-16T11:00:00.000Z';

/** East London Mosque: silent after its first ten minutes (a content warning); London Central Mosque: clean. */
function seed() {
  const silent = addMockInstances(
    mockInstance({ mosque_id: 'elm7q2w9z3', state: 'terminated', launch_time: WINDOW_START }),
  )[0];
  store.recordings.push(
    mockRecording(silent, {
      started_at: WINDOW_START,
      duration_seconds: 1800,
      expected_seconds: 1800,
      covered_seconds: 1800,
      reason: 'Content warning: silent for 20 of 30 minutes',
    }),
  );
  const clean = addMockInstances(
    mockInstance({ mosque_id: 'lcm4r8k2p1', state: 'terminated', launch_time: WINDOW_START }),
  )[0];
  store.recordings.push(
    mockRecording(clean, {
      started_at: WINDOW_START,
      duration_seconds: 1800,
      expected_seconds: 1800,
      covered_seconds: 1800,
    }),
  );
}

const table = () => within(screen.getByRole('table', { name: 'Recordings' }));

describe("a recording's content in the library", { timeout: scaled(60_000) }, () => {
  it('filters to content warnings, and the recording shows its loudness strip, loudness and longest silence', async () => {
    seed();
    const { user } = renderPage(<RecordingsPage />, { path: '/recordings', as: 'operator' });
    await screen.findByText('London Central Mosque', {}, { timeout: scaled(40_000) });

    await user.click(screen.getByRole('combobox', { name: 'Content' }));
    await user.click(await screen.findByRole('option', { name: 'Content warnings' }));
    await screen.findByText('1–1 of 1', {}, { timeout: scaled(20_000) });
    expect(table().getByText('East London Mosque')).toBeInTheDocument();
    expect(table().queryByText('London Central Mosque')).not.toBeInTheDocument();

    await user.click(table().getByRole('button', { name: /^Play recording/ }));
    const dialog = within(await screen.findByRole('dialog'));
    const summary = await dialog.findByTestId('content-summary', {}, { timeout: scaled(20_000) });
    expect(summary).toHaveTextContent('Integrated loudness -20.4 LUFS · longest silence 20 min · peak -2.1 dBFS');
    const strip = dialog.getByRole('img', { name: /^Loudness over the recording: / });
    // 180 windows of 10 s: loudness for the first 60, silence marked for the other 120.
    expect(strip.querySelectorAll('[data-testid="strip-silent"]')).toHaveLength(120);
    expect(strip.querySelectorAll('rect:not([data-testid])')).toHaveLength(60);
  });
});
