import { useMutation } from '@tanstack/react-query';
import { instanceRoutes } from '../../contract/routes/instances';
import type { StreamTestReport, StreamTestRequest } from '../../contract/stream-test';
import { api, apiErrorMessage } from './client';
import { call } from './endpoint';

export const STREAM_TEST_MESSAGES = {
  failed: 'The stream could not be tested',
  network: 'Network error occurred',
  clipFailed: 'The clip could not be loaded',
} as const;

/** Records a URL, or a mosque's own stream, for half a minute on the server and answers what it carries (the call takes that long). */
export async function testStream(request: StreamTestRequest): Promise<StreamTestReport> {
  return (await call(instanceRoutes.streamTest, { body: request })).data;
}

export function useTestStream() {
  return useMutation({ mutationFn: testStream });
}

/** The server's reason (unreachable, not a stream, refused host), else a network error, else `fallback`. */
export function streamTestErrorMessage(error: unknown, fallback: string = STREAM_TEST_MESSAGES.failed): string {
  return apiErrorMessage(error, fallback, STREAM_TEST_MESSAGES.network);
}

/** The test's clip, fetched with the session's bearer token (a plain video source could not carry it). */
export async function fetchStreamTestClip(id: string): Promise<Blob> {
  const response = await api.get<Blob>(`/api/instances/stream-test/${encodeURIComponent(id)}/clip`, {
    responseType: 'blob',
  });
  return response.data;
}
