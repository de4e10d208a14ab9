import type { Mosque } from '../../contract/mosques';
import { comingFriday } from '../../contract/fridays';
import type { Job } from '../../contract/scheduler';
import { mockMosques, seedMosque } from './handlers/config';
import { addMockInstances, mockInstance, mockRecording, setMockLogs } from './handlers/instances';
import { mockGapsOfEveryCause } from './handlers/recordings';
import { mockRecordingJob, schedulerMock } from './handlers/scheduler';
import { store } from './store';

/*
 * A populated fleet for `npm run dev:mock`: instances in every state, recordings of every outcome, and a
 * Friday ledger showing every status, so every page has something to show. Component tests start from an
 * empty fleet and add what they need; the demo-world test renders every page from this one.
 */

type LedgerCase = {
  mosque: Partial<Mosque> & Pick<Mosque, 'mosque_id' | 'name'>;
  status: Job['status'] | 'unschedulable';
  hour: number;
};

const UK = { timezone: 'Europe/London', country: 'United Kingdom', country_code: 'GB', languages: ['en', 'ar'] };
const stream = (slug: string) => `https://streams.example.com/live/${slug}.m3u8`;

/** One active mosque per ledger status (London Central and East London are already in the mocks). */
const LEDGER: LedgerCase[] = [
  { mosque: { mosque_id: 'lcm4r8k2p1', name: 'London Central Mosque' }, status: 'captured', hour: 11 },
  { mosque: { mosque_id: 'elm7q2w9z3', name: 'East London Mosque' }, status: 'partial', hour: 11 },
  {
    mosque: {
      mosque_id: 'fpm2k7d4q8',
      name: 'Finsbury Park Mosque',
      city: 'London',
      ID_token: stream('finsbury-park'),
      ...UK,
    },
    status: 'launched',
    hour: 12,
  },
  {
    mosque: {
      mosque_id: 'bcm5t1r6w2',
      name: 'Birmingham Central Mosque',
      city: 'Birmingham',
      ID_token: stream('birmingham'),
      ...UK,
    },
    status: 'failed',
    hour: 11,
  },
  {
    mosque: {
      mosque_id: 'mcm8h3j5n1',
      name: 'Manchester Central Mosque',
      city: 'Manchester',
      ID_token: stream('manchester'),
      ...UK,
    },
    status: 'missed',
    hour: 11,
  },
  {
    mosque: {
      mosque_id: 'gcm4v9b2x7',
      name: 'Glasgow Central Mosque',
      city: 'Glasgow',
      ID_token: stream('glasgow'),
      ...UK,
    },
    status: 'cancelled',
    hour: 12,
  },
  {
    mosque: { mosque_id: 'lgm6p2k8m3', name: 'Leeds Grand Mosque', city: 'Leeds', ID_token: stream('leeds'), ...UK },
    status: 'scheduled',
    hour: 13,
  },
  {
    mosque: { mosque_id: 'ncm3w7q1z9', name: 'Newcastle Central Mosque', city: 'Newcastle', ...UK },
    status: 'unschedulable',
    hour: 12,
  },
];

const REASONS: Partial<Record<Job['status'], string>> = {
  partial: 'Seven holes: 260 s of the sermon were lost',
  failed: 'The stream never came (HTTP 404 for the playlist for the whole window)',
  missed: 'The server was down at the recording start',
  cancelled: 'Cancelled by an operator',
};

/** Adds the demo fleet to the current mock store (call it once, before the console starts). */
export function seedDemoWorld(now = new Date()): void {
  const friday = comingFriday(now);
  const known = new Set(mockMosques().map((mosque) => mosque.mosque_id));
  mockMosques().push(...LEDGER.filter((c) => !known.has(c.mosque.mosque_id)).map((c) => seedMosque(c.mosque)));

  for (const { mosque, status, hour } of LEDGER) {
    if (status === 'unschedulable') continue;
    const start = `${friday}T${String(hour).padStart(2, '0')}:40:00.000Z`;
    const job = mockRecordingJob({
      mosque_id: mosque.mosque_id,
      mosque_name: mosque.name,
      recording_start: start,
      status,
      outcome_reason: REASONS[status] ?? null,
    });
    schedulerMock().jobs.push(job);
    if (status === 'scheduled' || status === 'missed' || status === 'cancelled') continue;

    const recording = status === 'launched';
    const [instance] = addMockInstances(
      mockInstance({
        mosque_id: mosque.mosque_id,
        name: `capture-${mosque.mosque_id}`,
        state: recording ? 'running' : 'terminated',
        launch_time: start,
        recording_status: recording ? 'recording' : null,
      }),
    );
    setMockLogs(instance.id, [
      `${start} launching capture of ${stream(mosque.mosque_id)} for 7200s at 1280x720`,
      `${start} stream resolved: h264 1280x720, aac 48 kHz`,
    ]);
    const outcome = {
      launched: {
        status: 'recording' as const,
        ended_at: null,
        bytes: 0,
        duration_seconds: null,
        covered_seconds: 1800,
      },
      captured: { status: 'captured' as const, bytes: 1_912_000_000, duration_seconds: 7200, covered_seconds: 7200 },
      partial: {
        status: 'partial' as const,
        bytes: 1_840_000_000,
        duration_seconds: 6940,
        covered_seconds: 6940,
        gaps: mockGapsOfEveryCause(start),
        reconnects: 6,
      },
      failed: { status: 'failed' as const, bytes: 0, duration_seconds: null, covered_seconds: 0, download_url: null },
    }[status as 'launched' | 'captured' | 'partial' | 'failed'];
    const made = mockRecording(instance, {
      started_at: start,
      expected_seconds: 7200,
      reason: REASONS[status] ?? null,
      ...outcome,
    });
    store.recordings.push(made);
    Object.assign(job, {
      instance_id: instance.id,
      recording_id: made.id,
      launched_at: start,
      covered_seconds: outcome.covered_seconds,
      expected_seconds: 7200,
    });
  }
  // An ad-hoc capture an operator is starting, and one of last week.
  addMockInstances(mockInstance({ state: 'pending', recording_status: null }));
  const [lastWeek] = addMockInstances(
    mockInstance({
      mosque_id: 'lcm4r8k2p1',
      state: 'terminated',
      launch_time: new Date(now.getTime() - 7 * 86_400_000).toISOString(),
      recording_status: null,
    }),
  );
  store.recordings.push(
    mockRecording(lastWeek, {
      started_at: lastWeek.launch_time,
      bytes: 1_880_000_000,
      duration_seconds: 7200,
      expected_seconds: 7200,
      covered_seconds: 7200,
    }),
  );
}
