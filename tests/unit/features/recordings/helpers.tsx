import { screen, within } from '@testing-library/react';
import { addMockInstances, mockInstance, mockRecording } from '../../../../src/mocks/handlers/instances';
import { keepInBucket } from '../../../../src/mocks/handlers/recordings';
import { store } from '../../../../src/mocks/store';
import RecordingsPage from '../../../../src/features/recordings/RecordingsPage';
import { renderPage } from '../../support/render';
import { scaled } from '../../../../testkit/time-scale';

/** Twelve recordings of London Central Mosque on 2026-01-02 .. 2026-01-13, a partial one and a failed empty one. */
export function seed() {
  for (let day = 2; day <= 13; day++) {
    const instance = addMockInstances(
      mockInstance({
        mosque_id: 'lcm4r8k2p1',
        state: 'terminated',
        launch_time: `2026-01-${String(day).padStart(2, '0')}T11:00:00.000Z`,
      }),
    )[0];
    store.recordings.push(mockRecording(instance, { started_at: instance.launch_time }));
  }
  const partial = addMockInstances(
    mockInstance({ mosque_id: 'elm7q2w9z3', state: 'terminated', launch_time: '2026-01-14T11:00:00.000Z' }),
  )[0];
  store.recordings.push(
    mockRecording(partial, {
      status: 'partial',
      started_at: partial.launch_time,
      expected_seconds: 7200,
      covered_seconds: 6600,
      gaps: [
        {
          start: '2026-01-14T11:00:00.000Z',
          end: '2026-01-14T11:10:00.000Z',
          cause: 'not_live_yet',
          reason: 'Stream not live yet (HTTP 404)',
          content_lost_seconds: 0,
        },
      ],
      reconnects: 1,
    }),
  );
  keepInBucket(store.recordings.at(-1)?.id ?? '');
  const failed = addMockInstances(
    mockInstance({ mosque_id: 'azh3c5v8n6', state: 'terminated', launch_time: '2026-01-16T10:00:00.000Z' }),
  )[0];
  store.recordings.push(
    mockRecording(failed, {
      status: 'failed',
      bytes: 0,
      started_at: failed.launch_time,
      reason: 'The stream never came',
      download_url: null,
    }),
  );
}

export const table = () => within(screen.getByRole('table', { name: 'Recordings' }));

/** The page at `path`, once `shown` is on screen. */
export async function show(as: string, path: string, shown: string) {
  const rendered = renderPage(<RecordingsPage />, { path, as });
  await screen.findByText(shown, {}, { timeout: scaled(40_000) });
  return rendered;
}

/** The page with the seeded library. */
export async function open(as = 'admin') {
  seed();
  return show(as, '/recordings', 'Al-Azhar Mosque');
}
