import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { Recording, RecordingsListResponse } from '../../contract/instances';
import { api } from './client';

export const RECORDING_DOWNLOAD_FAILED = 'Failed to download recording';

export const recordingsQueryKey = ['recordings'] as const;

export interface RecordingsFilter {
  instance_id?: string;
  mosque_id?: string;
  limit?: number;
}

export async function getRecordings(filter: RecordingsFilter = {}): Promise<Recording[]> {
  const response = await api.get<RecordingsListResponse>('/api/recordings', { params: filter });
  return response.data.data.recordings;
}

export const recordingsQueryOptions = (filter: RecordingsFilter = {}) =>
  queryOptions({ queryKey: [...recordingsQueryKey, filter], queryFn: () => getRecordings(filter) });

export function useRecordings(filter: RecordingsFilter = {}) {
  return useQuery(recordingsQueryOptions(filter));
}

/** The file name to save a recording under. */
export function recordingFileName(recording: Recording): string {
  return recording.file_name ?? `${recording.id}.mp4`;
}

/** The MP4 of a recording, fetched with the session's bearer token (a plain link could not carry it). */
export async function fetchRecordingFile(recording: Recording): Promise<Blob> {
  if (!recording.download_url) throw new Error('This recording has no file on this server');
  const response = await api.get<Blob>(recording.download_url, { responseType: 'blob' });
  return response.data;
}

/** Hands a blob to the browser as a download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser a moment to start reading the blob before it is released.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export async function downloadRecording(recording: Recording): Promise<void> {
  saveBlob(await fetchRecordingFile(recording), recordingFileName(recording));
}

export function useDownloadRecording() {
  return useMutation({ mutationFn: downloadRecording });
}
