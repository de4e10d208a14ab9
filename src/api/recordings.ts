import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Recording } from '../../contract/instances';
import type {
  LibraryRecording,
  RecordingContent,
  RecordingsLibraryQuery,
  RecordingsLibraryResponse,
  RecordingsMediaLinks,
  StorageUsage,
} from '../../contract/recordings';
import { recordingRoutes } from '../../contract/routes/recordings';
import { api } from './client';
import { call } from './endpoint';

export const RECORDING_DOWNLOAD_FAILED = 'Failed to download recording';

export const recordingsQueryKey = ['recordings'] as const;

export const RECORDING_MESSAGES = {
  loadFailed: 'Failed to load recordings',
  deleteFailed: 'Failed to delete recording',
  playFailed: 'Failed to open the recording for playback',
  contentFailed: "Failed to load the recording's loudness and silence",
  deleted: 'Recording deleted',
  bulkDeleteFailed: 'Failed to delete the selected recordings',
  linksFailed: 'Failed to make the download links',
  audioFailed: 'Failed to prepare the audio',
  /** "Could not delete 2 recordings: rec-1 (…still recording…); rec-2 (…not found)" */
  notDone: (what: string, failed: { id: string; reason: string }[]) =>
    `${what} ${failed.length} ${failed.length === 1 ? 'recording' : 'recordings'}: ${failed.map((f) => `${f.id} (${f.reason})`).join('; ')}`,
  linksSaved: (count: number) =>
    `${count} download ${count === 1 ? 'link' : 'links'} saved (they expire in a few hours)`,
};

export async function getRecordingsPage(query: RecordingsLibraryQuery): Promise<RecordingsLibraryResponse['data']> {
  return (await call(recordingRoutes.list, { query })).data;
}

/** One page of the library; the previous page stays on screen while the next one loads. */
export function useRecordingsPage(query: RecordingsLibraryQuery) {
  return useQuery({
    queryKey: [...recordingsQueryKey, 'page', query],
    queryFn: () => getRecordingsPage(query),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

export async function getStorageUsage(): Promise<StorageUsage> {
  return (await call(recordingRoutes.storage)).data;
}

export const storageUsageQueryOptions = () =>
  queryOptions({ queryKey: [...recordingsQueryKey, 'storage'], queryFn: getStorageUsage, refetchInterval: 60_000 });

export function useStorageUsage() {
  return useQuery(storageUsageQueryOptions());
}

/** Asks the server to measure the store now; the card shows the new figure at once. */
export function useMeasureStorage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => (await call(recordingRoutes.measureStorage)).data,
    onSuccess: (usage) => client.setQueryData(storageUsageQueryOptions().queryKey, usage),
  });
}

/** A link the <video> element can play without a bearer header (it expires after a few hours). */
export async function getMediaLink(recording: Pick<LibraryRecording, 'id'>): Promise<string> {
  return (await call(recordingRoutes.mediaLink, { params: { id: recording.id } })).data.url;
}

/** How long the console waits before asking again while the server prepares an audio-only file. */
export const AUDIO_POLL_MS = 3000;

/**
 * A signed link to a recording's audio alone (AAC, -16 LUFS). The server makes that file when first
 * asked: while it says `preparing`, the console asks again every few seconds.
 */
export async function getAudioLink(recordingId: string, pollMs = AUDIO_POLL_MS): Promise<string> {
  for (;;) {
    const { url, preparing } = (
      await call(recordingRoutes.mediaLink, { params: { id: recordingId }, query: { rendition: 'audio' } })
    ).data;
    if (!preparing) return url;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** Has the browser save the file of a signed media link (no bearer header needed). */
export function saveSignedLink(url: string): void {
  const link = document.createElement('a');
  link.href = `${url}&download=1`;
  link.rel = 'noopener';
  link.click();
}

/** Prepares a recording's audio-only file and has the browser save it. */
export function useDownloadAudio() {
  return useMutation({
    mutationFn: async (recordingId: string) => saveSignedLink(await getAudioLink(recordingId)),
  });
}

export function useMediaLink(recordingId: string | null) {
  return useQuery({
    queryKey: [...recordingsQueryKey, 'media-link', recordingId],
    queryFn: () => getMediaLink({ id: recordingId ?? '' }),
    enabled: recordingId !== null,
    staleTime: 60 * 60_000,
  });
}

/** The loudness strip and content figures of a finished recording; null when its content was not measured. */
export function useRecordingContent(recordingId: string | null) {
  return useQuery({
    queryKey: [...recordingsQueryKey, 'content', recordingId],
    queryFn: async (): Promise<RecordingContent | null> =>
      (await call(recordingRoutes.content, { params: { id: recordingId ?? '' } })).data,
    enabled: recordingId !== null,
    staleTime: 60 * 60_000,
  });
}

export function useDeleteRecording() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (recording: Pick<LibraryRecording, 'id'>) =>
      call(recordingRoutes.delete, { params: { id: recording.id } }),
    onSettled: () => client.invalidateQueries({ queryKey: recordingsQueryKey }),
  });
}

/** Signed download links of the given recordings, and the ones that have none. */
export async function getMediaLinks(ids: string[]): Promise<RecordingsMediaLinks> {
  return (await call(recordingRoutes.mediaLinks, { body: { recording_ids: ids } })).data;
}

export function useBulkDeleteRecordings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (ids: string[]) => {
      const { message, data } = await call(recordingRoutes.bulkDelete, { body: { recording_ids: ids } });
      return { message, ...data };
    },
    onSettled: () => client.invalidateQueries({ queryKey: recordingsQueryKey }),
  });
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
