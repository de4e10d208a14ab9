import { http, HttpResponse } from 'msw';
import type { Recording } from '../../../contract/instances';
import {
  recordingsLibraryQuerySchema,
  type LibraryRecording,
  type MediaLinkResponse,
  type RecordingDetails,
  type RecordingsLibraryResponse,
  type StorageUsage,
} from '../../../contract/recordings';
import { authorize, errorResponse } from '../http';
import { store } from '../store';
import { mockMosques } from './config';

/** A few bytes that start like an MP4, enough for the player and the download to have something. */
const MP4_HEAD = new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112, 105, 115, 111, 109]);

/** Recordings kept in a (mock) bucket: their media is played through a pre-signed redirect. */
const inBucket = new Set<string>();

/** Puts a mock recording into the bucket store instead of the local one. */
export function keepInBucket(recordingId: string): void {
  inBucket.add(recordingId);
}

/** The library's view of a mock recording: its mosque's name, its day, its store, and whether it has media. */
function toLibrary(recording: Recording): LibraryRecording {
  const mosque = mockMosques().find((m) => m.mosque_id === recording.mosque_id);
  return {
    ...recording,
    mosque_name: mosque?.name ?? null,
    friday: recording.started_at.slice(0, 10),
    job_id: null,
    media_available: recording.status !== 'recording' && recording.bytes > 0,
    store: inBucket.has(recording.id) ? 's3' : 'local',
  };
}

function find(id: unknown) {
  return store.recordings.find((r) => r.id === id);
}

export const recordingHandlers = [
  http.get('/api/recordings', ({ request }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const parsed = recordingsLibraryQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) return errorResponse(400, `Query string is invalid: ${parsed.error.issues[0]?.message ?? ''}`);
    const q = parsed.data;
    const matching = store.recordings
      .map(toLibrary)
      .filter((r) => (!q.instance_id || r.instance_id === q.instance_id) && (!q.mosque_id || r.mosque_id === q.mosque_id))
      .filter((r) => (!q.friday || r.friday === q.friday) && (!q.status || r.status === q.status))
      .sort((a, b) => b.started_at.localeCompare(a.started_at));
    const page = matching.slice(q.offset, q.offset + q.limit);
    return HttpResponse.json<RecordingsLibraryResponse>({ success: true, data: { recordings: page, total: matching.length } });
  }),

  http.get('/api/recordings/storage', ({ request }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const used = store.recordings.reduce((sum, r) => sum + r.bytes, 0);
    const data: StorageUsage = { store: 'local', location: 'local:/srv/capture/data/recordings', used_bytes: used, free_bytes: 412_000_000_000, measured_at: new Date().toISOString(), retention_days: null };
    return HttpResponse.json({ success: true, data });
  }),

  http.get('/api/recordings/:id', ({ request, params }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const recording = find(params.id);
    if (!recording) return errorResponse(404, `Recording ${String(params.id)} not found`);
    const files = recording.bytes > 0 ? [{ name: 'recording.mp4', bytes: recording.bytes }] : [];
    const details: RecordingDetails = { ...toLibrary(recording), files: inBucket.has(recording.id) ? [{ name: 'metadata.json', bytes: 900 }, ...files] : files };
    return HttpResponse.json({ success: true, data: details });
  }),

  http.post('/api/recordings/:id/media-link', ({ request, params }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const recording = find(params.id);
    if (!recording || !toLibrary(recording).media_available) return errorResponse(404, `Recording ${String(params.id)} has no media to play`);
    const expires = new Date(Date.now() + 3 * 3600_000).toISOString();
    return HttpResponse.json<MediaLinkResponse>({ success: true, data: { url: `/api/recordings/${recording.id}/media?token=1.mock`, expires_at: expires } });
  }),

  http.get('/api/recordings/:id/media', ({ request, params }) => {
    const recording = find(params.id);
    if (!recording) return errorResponse(404, `Recording ${String(params.id)} not found`);
    // From a bucket the server answers with a short-lived pre-signed URL of the object.
    if (inBucket.has(recording.id)) {
      return HttpResponse.redirect(new URL(`/mock-bucket/${recording.id}/recording.mp4?X-Amz-Expires=300&X-Amz-Signature=mock`, request.url).href, 302);
    }
    return new HttpResponse(MP4_HEAD, { headers: { 'content-type': 'video/mp4', 'accept-ranges': 'bytes' } });
  }),

  http.get('/mock-bucket/:id/recording.mp4', ({ params }) => {
    if (!find(params.id)) return new HttpResponse('<Error><Code>NoSuchKey</Code></Error>', { status: 404, headers: { 'content-type': 'application/xml' } });
    return new HttpResponse(MP4_HEAD, { headers: { 'content-type': 'video/mp4', 'accept-ranges': 'bytes' } });
  }),

  http.delete('/api/recordings/:id', ({ request, params }) => {
    const actor = authorize(request, 'superuser');
    if (actor instanceof Response) return actor;
    const recording = find(params.id);
    if (!recording) return errorResponse(404, `Recording ${String(params.id)} not found`);
    if (recording.status === 'recording') return errorResponse(409, `Recording ${recording.id} is still recording: terminate its instance first`);
    store.recordings = store.recordings.filter((r) => r.id !== recording.id);
    return HttpResponse.json({ success: true, message: `Recording ${recording.id} deleted` });
  }),
];
