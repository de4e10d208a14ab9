import { recordingIdParamsSchema } from '../instances';
import {
  deleteRecordingResponseSchema,
  mediaLinkQuerySchema,
  mediaLinkResponseSchema,
  mediaQuerySchema,
  recordingBulkRequestSchema,
  recordingsBulkDeleteResponseSchema,
  recordingsMediaLinksResponseSchema,
  recordingContentResponseSchema,
  recordingDetailsResponseSchema,
  recordingsLibraryQuerySchema,
  recordingsLibraryResponseSchema,
  storageUsageResponseSchema,
} from '../recordings';
import { endpoint } from '../endpoint';

/** The recordings library: list, details, media (ranges, signed links), delete, storage. */
export const recordingRoutes = {
  list: endpoint({
    method: 'GET',
    path: '/api/recordings',
    access: 'session',
    query: recordingsLibraryQuerySchema,
    response: recordingsLibraryResponseSchema,
  }),
  /** Signed download links of many recordings (the console saves them as a list); the same access as one link. */
  mediaLinks: endpoint({
    method: 'POST',
    path: '/api/recordings/media-links',
    access: 'session',
    body: recordingBulkRequestSchema,
    response: recordingsMediaLinksResponseSchema,
  }),
  /** Deletes many recordings, each as its single delete (superuser, logged); the ones that could not be are named. */
  bulkDelete: endpoint({
    method: 'POST',
    path: '/api/recordings/bulk-delete',
    access: 'superuser',
    body: recordingBulkRequestSchema,
    response: recordingsBulkDeleteResponseSchema,
  }),
  storage: endpoint({
    method: 'GET',
    path: '/api/recordings/storage',
    access: 'session',
    response: storageUsageResponseSchema,
  }),
  /** Measures the store now (unless it was measured in the last 30 s) instead of answering the figure of up to 10 min ago. */
  measureStorage: endpoint({
    method: 'POST',
    path: '/api/recordings/storage/measure',
    access: 'session',
    response: storageUsageResponseSchema,
  }),
  details: endpoint({
    method: 'GET',
    path: '/api/recordings/:id',
    access: 'session',
    params: recordingIdParamsSchema,
    response: recordingDetailsResponseSchema,
  }),
  /** The loudness strip, integrated loudness and longest silence the recorder measured. */
  content: endpoint({
    method: 'GET',
    path: '/api/recordings/:id/content',
    access: 'session',
    params: recordingIdParamsSchema,
    response: recordingContentResponseSchema,
  }),
  mediaLink: endpoint({
    method: 'POST',
    path: '/api/recordings/:id/media-link',
    access: 'session',
    params: recordingIdParamsSchema,
    query: mediaLinkQuerySchema,
    response: mediaLinkResponseSchema,
  }),
  /** Bytes (whole, or a 206 range) or a redirect to a pre-signed URL: no JSON response. A session or a signed link opens it. */
  media: endpoint({
    method: 'GET',
    path: '/api/recordings/:id/media',
    access: 'session-or-link',
    params: recordingIdParamsSchema,
    query: mediaQuerySchema,
  }),
  /** The MP4 of a local recording, fetched by the console with its bearer token as a blob: no JSON response. */
  file: endpoint({
    method: 'GET',
    path: '/api/recordings/:id/file',
    access: 'session',
    params: recordingIdParamsSchema,
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/api/recordings/:id',
    access: 'superuser',
    params: recordingIdParamsSchema,
    response: deleteRecordingResponseSchema,
  }),
};
