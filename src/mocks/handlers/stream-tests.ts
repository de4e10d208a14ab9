import { delay, HttpResponse } from 'msw';
import { DEFAULT_STREAM_URL_TEMPLATE, streamUrlFor } from '../../../contract/recording-configs';
import { instanceRoutes } from '../../../contract/routes/instances';
import { STREAM_TEST_CLIP_MINUTES, type StreamTestReport } from '../../../contract/stream-test';
import { mock } from '../endpoint';
import { errorResponse } from '../http';
import { mockMosques } from './config';
import { MP4_HEAD } from './recordings';

/** A URL the stream-test mock cannot reach (the console's error path). */
export const MOCK_UNREACHABLE_STREAM = 'https://unreachable.example.org/live.m3u8';

const kept = new Set<string>();
let nextId = 1;

/** "Test stream" in the mocks: any stream is a 720p H.264 + AAC one, after a short wait instead of half a minute. */
export const streamTestHandlers = [
  mock(instanceRoutes.streamTest, async ({ body }) => {
    await delay(300);
    const mosque =
      body.mosque_id === undefined
        ? undefined
        : mockMosques().find((candidate) => candidate.mosque_id === body.mosque_id);
    if (body.mosque_id !== undefined && !mosque) return errorResponse(404, `Mosque ${body.mosque_id} not found`);
    if (mosque && !mosque.ID_token?.trim()) return errorResponse(400, 'Mosque has no stream identifier (ID_token)');
    const url = body.url ?? streamUrlFor(mosque?.ID_token ?? '', DEFAULT_STREAM_URL_TEMPLATE);
    if (url === MOCK_UNREACHABLE_STREAM)
      return errorResponse(422, `Nothing could be recorded from ${url}: Connection refused`);
    const id = `st-mock${String(nextId++).padStart(6, '0')}`;
    kept.add(id);
    const report: StreamTestReport = {
      id,
      url,
      seconds: 30,
      bytes: 4_812_345,
      video: { codec: 'h264', width: 1280, height: 720, frame_rate: 25 },
      audio: { codec: 'aac', sample_rate: 48_000, channels: 2 },
      clip_expires_at: new Date(Date.now() + STREAM_TEST_CLIP_MINUTES * 60_000).toISOString(),
    };
    return HttpResponse.json({ success: true, data: report });
  }),

  mock(instanceRoutes.streamTestClip, ({ params }) => {
    if (!kept.has(params.id))
      return errorResponse(404, `The clip of stream test ${params.id} has expired or does not exist`);
    return new HttpResponse(MP4_HEAD, { headers: { 'content-type': 'video/mp4' } });
  }),
];
