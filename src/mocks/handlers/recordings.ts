import { http, HttpResponse } from 'msw';
import type { ContentWindow, LiveContent } from '../../../contract/content';
import type { Recording, RecordingGap } from '../../../contract/instances';
import {
  recordingsDeletedMessage,
  type LibraryRecording,
  type MediaLinkResponse,
  type MediaRendition,
  type RecordingBulkFailure,
  type RecordingContent,
  type RecordingSortField,
  type RecordingsLibraryResponse,
  type RecordingsMediaLinks,
  type RecordingsPageQuery,
  type StorageUsage,
  type RecordingDetails,
} from '../../../contract/recordings';
import { recordingRoutes } from '../../../contract/routes/recordings';
import { mock } from '../endpoint';
import { errorResponse } from '../http';
import { store } from '../store';
import { mockMosques } from './config';
import { schedulerMock } from './scheduler';

/** A few bytes that start like an MP4, enough for the player and the download to have something. */
export const MP4_HEAD = new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112, 105, 115, 111, 109]);

/** [start, end] seconds into the window, cause, detail, content lost: one hole of every cause, then a join too short to be a hole. */
const GAPS_OF_EVERY_CAUSE: [number, number, RecordingGap['cause'], string, number][] = [
  [0, 75, 'not_live_yet', 'The stream was not live yet (HTTP 404 for the playlist)', 0],
  [600, 620, 'stream_dropped', 'The stream dropped (connection reset by peer)', 18],
  [1200, 1270, 'stream_stalled', 'No new segment for 70 s: the playlist stopped moving', 70],
  [
    1500,
    1520,
    'stream_refused',
    'Stream refused (segment 730: 127.0.0.1 is an internal address: a recorder may not connect to it)',
    20,
  ],
  [1800, 1812, 'sequence_reset', 'The encoder restarted (media sequence 412 to 0)', 12],
  [2400, 2440, 'recorder_down', 'The recorder was killed (signal 9) and started again', 40],
  [2700, 2730, 'recorder_late', 'The machine was not ready: the recorder started 30 s late', 30],
  [
    2850,
    2880,
    'recorder_overloaded',
    'Recorder overloaded on ip-10-0-3-17 (ffmpeg at 0.43x real time, 60 s behind the stream)',
    30,
  ],
  [3000, 3090, 'server_down', 'The server was down (restarted)', 90],
  [3600, 3630, 'store_unreachable', 'The store could not be reached (connection timed out)', 30],
  [4200, 4206, 'stream_dropped', 'The stream dropped (HTTP 502)', 6],
];

/** Gaps of every cause in a window opening at `windowStart`: ten holes (340 s lost) and a 6 s join. */
export function mockGapsOfEveryCause(windowStart: string): RecordingGap[] {
  const at = (seconds: number) => new Date(Date.parse(windowStart) + seconds * 1000).toISOString();
  return GAPS_OF_EVERY_CAUSE.map(([from, to, cause, reason, lost]) => ({
    start: at(from),
    end: at(to),
    cause,
    reason,
    content_lost_seconds: lost,
  }));
}

/** A recording whose content the recorder warned of, as the server's library filter finds it. */
const contentWarned = (recording: Recording) => recording.reason?.includes('Content warning:') ?? false;

/** The mock speaker's 10 s reading `i` of the recording's window: near -20 LUFS, or silent. */
function mockWindow(recording: Recording, i: number, silent: boolean): ContentWindow {
  const loudness = silent ? null : Math.round((-20 + 4 * Math.sin(i / 7)) * 10) / 10;
  return {
    start: new Date(Date.parse(recording.started_at) + i * 10_000).toISOString(),
    measured_seconds: 10,
    loudness_lufs: loudness,
    momentary_max_lufs: loudness === null ? -71 : loudness + 6,
    silent_seconds: silent ? 10 : 0,
    frozen_seconds: 0,
    black_seconds: 0,
  };
}

/** The totals of a mock recording's readings. */
function mockTotals(windows: ContentWindow[], measuredSeconds: number) {
  const silentSeconds = windows.reduce((sum, w) => sum + w.silent_seconds, 0);
  return {
    measured_seconds: measuredSeconds,
    integrated_lufs: windows.some((w) => w.loudness_lufs !== null) ? -20.4 : null,
    peak_dbfs: -2.1,
    longest_silence_seconds: silentSeconds,
    silent_seconds: silentSeconds,
    frozen_seconds: 0,
    black_seconds: 0,
  };
}

/**
 * The content readings of a finished mock recording: a speaker near -20 LUFS, 10 s windows over its
 * duration; one with a content warning is silent for most of it after its first ten minutes.
 */
export function mockContentOf(recording: Recording): RecordingContent | null {
  if (recording.status === 'recording' || recording.bytes === 0) return null;
  const seconds = recording.duration_seconds ?? recording.covered_seconds ?? 0;
  const silentFrom = contentWarned(recording) ? 600 : Infinity;
  const windows = Array.from({ length: Math.ceil(seconds / 10) }, (_, i) =>
    mockWindow(recording, i, i * 10 >= silentFrom),
  );
  return { ...mockTotals(windows, windows.length * 10), windows };
}

/** A running mock recording's live content: the speaker's last 5 minutes of readings, settled 30 s behind now. */
export function mockLiveContentOf(recording: Recording, now = Date.now()): LiveContent | null {
  if (recording.status !== 'recording') return null;
  const settled = Math.max(0, Math.floor((now - Date.parse(recording.started_at) - 30_000) / 10_000));
  const first = Math.max(0, settled - 30);
  const windows = Array.from({ length: settled - first }, (_, i) => mockWindow(recording, first + i, false));
  return { ...mockTotals(windows, settled * 10), windows, conditions: [] };
}

/** Recordings kept in a (mock) bucket: their media is played through a pre-signed redirect. */
const inBucket = new Set<string>();

/** Puts a mock recording into the bucket store instead of the local one. */
export function keepInBucket(recordingId: string): void {
  inBucket.add(recordingId);
}

/**
 * The library's view of a mock recording: its mosque's name, its job and day (a Friday job's Friday, as
 * the server's; a one-off's own UTC day), its store, and whether it has media.
 */
function toLibrary(recording: Recording): LibraryRecording {
  const mosque = mockMosques().find((m) => m.mosque_id === recording.mosque_id);
  const job = schedulerMock().jobs.find((candidate) => candidate.instance_id === recording.instance_id);
  return {
    ...recording,
    mosque_name: mosque?.name ?? null,
    friday: job?.friday_date ?? recording.started_at.slice(0, 10),
    job_id: job?.id ?? null,
    media_available: recording.status !== 'recording' && recording.bytes > 0,
    store: inBucket.has(recording.id) ? 's3' : 'local',
  };
}

/** A token of the signed links' shape (the media endpoint's query schema refuses any other); the mock does not check its signature. */
// As the server's: expiry, the session it belongs to (revoked with it), signature.
const MOCK_LINK_TOKEN = '1.00000000-0000-4000-8000-000000000000.mock-signature-of-the-media-link';

function mediaLinkOf(id: string, rendition?: MediaRendition): MediaLinkResponse['data'] {
  return {
    url: `/api/recordings/${id}/media?${rendition ? `rendition=${rendition}&` : ''}token=${MOCK_LINK_TOKEN}`,
    expires_at: new Date(Date.now() + 3 * 3600_000).toISOString(),
    // The mock has every audio-only file ready at once.
    ...(rendition ? { preparing: false } : {}),
  };
}

function find(id: unknown) {
  return store.recordings.find((r) => r.id === id);
}

function storageUsage(): StorageUsage {
  const used = store.recordings.reduce((sum, r) => sum + r.bytes, 0);
  return {
    store: 'local',
    location: 'local:/srv/capture/data/recordings',
    used_bytes: used,
    free_bytes: 412_000_000_000,
    measured_at: new Date().toISOString(),
    retention_days: null,
  };
}

/** The server's sort keys (server/modules/recordings/library-repository.ts) over a mock recording. */
const SORT_VALUES: Record<RecordingSortField, (r: LibraryRecording) => string | number | null> = {
  friday: (r) => r.friday,
  mosque: (r) => r.mosque_name?.toLowerCase() ?? null,
  status: (r) => r.status,
  duration_seconds: (r) => r.duration_seconds,
  bytes: (r) => r.bytes,
  started_at: (r) => r.started_at,
};

/** As the server: newest first unless sorted (ascending unless asked otherwise), empty values last, ties by start then id. */
function compareRecordings(a: LibraryRecording, b: LibraryRecording, q: RecordingsPageQuery): number {
  const sign = (q.order ?? (q.sort ? 'asc' : 'desc')) === 'desc' ? -1 : 1;
  const keys = [...(q.sort ? [SORT_VALUES[q.sort]] : []), SORT_VALUES.started_at, (r: LibraryRecording) => r.id];
  for (const key of keys) {
    const [left, right] = [key(a), key(b)];
    if (left === right) continue;
    if (left === null || right === null) return left === null ? 1 : -1;
    return (left < right ? -1 : 1) * sign;
  }
  return 0;
}

/** The server's search: the mosque's name, its id or the recording's id contains the text, case ignored. */
function matchesSearch(recording: LibraryRecording, q: string | undefined): boolean {
  const needle = q?.toLowerCase();
  return (
    !needle ||
    [recording.mosque_name, recording.mosque_id, recording.id].some((text) => text?.toLowerCase().includes(needle))
  );
}

/** Runs `act` on each recording id, naming the ones it throws for (as the server's bulk actions do). */
function eachRecording<T>(ids: string[], act: (id: string) => T): { done: T[]; failed: RecordingBulkFailure[] } {
  const done: T[] = [];
  const failed: RecordingBulkFailure[] = [];
  for (const id of ids) {
    try {
      done.push(act(id));
    } catch (error) {
      failed.push({ id, reason: (error as Error).message });
    }
  }
  return { done, failed };
}

export const recordingHandlers = [
  mock(recordingRoutes.list, ({ query: q }) => {
    const matching = store.recordings
      .map(toLibrary)
      .filter(
        (r) => (!q.instance_id || r.instance_id === q.instance_id) && (!q.mosque_id || r.mosque_id === q.mosque_id),
      )
      .filter(
        (r) => (!q.friday || r.friday === q.friday) && (!q.status || r.status === q.status) && matchesSearch(r, q.q),
      )
      .filter((r) => !q.content_warnings || contentWarned(r))
      .sort((a, b) => compareRecordings(a, b, q));
    const page = matching.slice(q.offset, q.offset + q.limit);
    return HttpResponse.json<RecordingsLibraryResponse>({
      success: true,
      data: { recordings: page, total: matching.length },
    });
  }),

  mock(recordingRoutes.storage, () => HttpResponse.json({ success: true, data: storageUsage() })),

  mock(recordingRoutes.measureStorage, () => HttpResponse.json({ success: true, data: storageUsage() })),

  mock(recordingRoutes.details, ({ params }) => {
    const recording = find(params.id);
    if (!recording) return errorResponse(404, `Recording ${params.id} not found`);
    const files = recording.bytes > 0 ? [{ name: 'recording.mp4', bytes: recording.bytes }] : [];
    const details: RecordingDetails = {
      ...toLibrary(recording),
      files: inBucket.has(recording.id) ? [{ name: 'metadata.json', bytes: 900 }, ...files] : files,
    };
    return HttpResponse.json({ success: true, data: details });
  }),

  mock(recordingRoutes.content, ({ params }) => {
    const recording = find(params.id);
    if (!recording) return errorResponse(404, `Recording ${params.id} not found`);
    return HttpResponse.json({ success: true, data: mockContentOf(recording) });
  }),

  mock(recordingRoutes.mediaLink, ({ params, query }) => {
    const recording = find(params.id);
    if (!recording || !toLibrary(recording).media_available)
      return errorResponse(404, `Recording ${params.id} has no media to play`);
    return HttpResponse.json<MediaLinkResponse>({
      success: true,
      data: mediaLinkOf(recording.id, query.rendition),
    });
  }),

  mock(recordingRoutes.mediaLinks, ({ body }) => {
    const { done, failed } = eachRecording(body.recording_ids, (id) => {
      const recording = find(id);
      if (!recording) throw new Error(`Recording ${id} not found`);
      if (!toLibrary(recording).media_available) throw new Error(`Recording ${id} has no media to play`);
      const link = mediaLinkOf(id);
      return { id, url: `${link.url}&download=1`, expires_at: link.expires_at };
    });
    return HttpResponse.json<{ success: true; data: RecordingsMediaLinks }>({
      success: true,
      data: { links: done, failed },
    });
  }),

  mock(recordingRoutes.bulkDelete, ({ body }) => {
    const { done, failed } = eachRecording(body.recording_ids, (id) => {
      const recording = find(id);
      if (!recording) throw new Error(`Recording ${id} not found`);
      if (recording.status === 'recording')
        throw new Error(`Recording ${id} is still recording: terminate its instance first`);
      store.recordings = store.recordings.filter((r) => r.id !== id);
      return id;
    });
    return HttpResponse.json({
      success: true,
      message: recordingsDeletedMessage(done.length),
      data: { deleted: done, failed },
    });
  }),

  mock(recordingRoutes.media, ({ request, params }) => {
    const recording = find(params.id);
    if (!recording) return errorResponse(404, `Recording ${params.id} not found`);
    // From a bucket the server answers with a short-lived pre-signed URL of the object.
    if (inBucket.has(recording.id)) {
      return HttpResponse.redirect(
        new URL(`/mock-bucket/${recording.id}/recording.mp4?X-Amz-Expires=300&X-Amz-Signature=mock`, request.url).href,
        302,
      );
    }
    return new HttpResponse(MP4_HEAD, { headers: { 'content-type': 'video/mp4', 'accept-ranges': 'bytes' } });
  }),

  mock(recordingRoutes.file, ({ params }) => {
    const recording = find(params.id);
    if (!recording?.download_url) return errorResponse(404, `Recording ${params.id} not found`);
    return new HttpResponse(MP4_HEAD, {
      headers: {
        'content-type': 'video/mp4',
        'content-disposition': `attachment; filename="${recording.file_name ?? 'recording.mp4'}"`,
      },
    });
  }),

  http.get('/mock-bucket/:id/recording.mp4', ({ params }) => {
    if (!find(params.id))
      return new HttpResponse('<Error><Code>NoSuchKey</Code></Error>', {
        status: 404,
        headers: { 'content-type': 'application/xml' },
      });
    return new HttpResponse(MP4_HEAD, { headers: { 'content-type': 'video/mp4', 'accept-ranges': 'bytes' } });
  }),

  mock(recordingRoutes.delete, ({ params }) => {
    const recording = find(params.id);
    if (!recording) return errorResponse(404, `Recording ${params.id} not found`);
    if (recording.status === 'recording')
      return errorResponse(409, `Recording ${recording.id} is still recording: terminate its instance first`);
    store.recordings = store.recordings.filter((r) => r.id !== recording.id);
    return HttpResponse.json({ success: true, message: `Recording ${recording.id} deleted` });
  }),
];
