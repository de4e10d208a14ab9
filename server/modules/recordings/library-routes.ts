import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FastifyReply } from 'fastify';
import { recordingRoutes } from '../../../contract/routes/recordings';
import { sessionOf, type AppInstance } from '../../lib/fastify';
import { HttpError, unauthorized } from '../../lib/http-error';
import { handle } from '../../lib/route-table';
import { parseByteRange, type RecordingStore } from '../../storage/recording-store';
import type { RecordingsLibrary } from './library';

/** The recordings library: list, details, media (ranges, signed links), delete, storage. */
export function registerLibraryRoutes(app: AppInstance, library: RecordingsLibrary, store: RecordingStore): void {
  handle(app, recordingRoutes.list, async (request) => ({
    success: true as const,
    data: await library.page(request.query),
  }));

  handle(app, recordingRoutes.storage, async () => ({
    success: true as const,
    data: await library.storage(),
  }));

  handle(app, recordingRoutes.measureStorage, async () => ({
    success: true as const,
    data: await library.storage(true),
  }));

  handle(app, recordingRoutes.details, async (request) => ({
    success: true as const,
    data: await library.details(request.params.id),
  }));

  handle(app, recordingRoutes.content, async (request) => ({
    success: true as const,
    data: await library.content(request.params.id),
  }));

  handle(app, recordingRoutes.mediaLink, async (request) => ({
    success: true as const,
    data: await library.mediaLink(request.params.id, sessionOf(request).sessionId, request.query.rendition),
  }));

  // Binary: no response schema. A session (bearer) or a signed link opens it.
  handle(app, recordingRoutes.media, async (request, reply) => {
    const { id } = request.params;
    const { token, rendition } = request.query;
    if (!request.auth) {
      if (!token) throw unauthorized('Not authenticated');
      if (!(await library.verifyLink(id, token, rendition)))
        throw unauthorized('This media link is invalid, has expired, or its session has ended');
    }
    // The audio-only file: made first when it is not in the store yet (the request waits for it).
    const located = rendition === 'audio' ? { here: await library.audio(id) } : await library.locate(id);
    if ('elsewhere' in located) {
      const answer = await library.fetchElsewhere(id, located.elsewhere, {
        range: request.headers.range,
        download: Boolean(request.query.download),
      });
      return relayMedia(reply, answer);
    }
    const media = located.here;
    // From a bucket the player is sent to a short-lived pre-signed URL; a download fetched with the
    // bearer header is streamed through here instead (a cross-origin redirect would carry that header).
    const signed =
      request.auth && request.query.download
        ? null
        : await store.signedUrl(media.key, 300, request.query.download ? media.name : undefined);
    if (signed) return reply.header('cache-control', 'private, no-store').redirect(signed, 302);
    return sendMedia(reply, store, media, request.headers.range, Boolean(request.query.download));
  });

  handle(app, recordingRoutes.mediaLinks, async (request) => ({
    success: true as const,
    data: await library.mediaLinks(request.body.recording_ids, sessionOf(request).sessionId),
  }));

  handle(app, recordingRoutes.bulkDelete, async (request) => {
    const { id, username } = sessionOf(request).user;
    return { success: true as const, ...(await library.deleteMany(request.body.recording_ids, { id, username })) };
  });

  handle(app, recordingRoutes.delete, async (request) => {
    const { id, username } = sessionOf(request).user;
    await library.delete(request.params.id, { id, username });
    return { success: true as const, message: `Recording ${request.params.id} deleted` };
  });
}

/** Sends a recording's media from this server's store, whole or the one byte range asked for. */
export async function sendMedia(
  reply: FastifyReply,
  store: RecordingStore,
  media: { key: string; size: number; name: string },
  rangeHeader: string | undefined,
  download: boolean,
): Promise<FastifyReply> {
  const range = parseByteRange(rangeHeader, media.size);
  if (range === 'unsatisfiable') {
    throw new HttpError(416, 'The requested range is outside the recording', {
      'content-range': `bytes */${media.size}`,
    });
  }
  reply
    .header('content-type', contentTypeOf(media.name))
    .header('accept-ranges', 'bytes')
    .header('content-disposition', download ? `attachment; filename="${media.name}"` : 'inline')
    .header('cache-control', 'private, no-store');
  if (!range) return reply.header('content-length', String(media.size)).send(await store.read(media.key));
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${media.size}`)
    .header('content-length', String(range.end - range.start + 1))
    .send(await store.read(media.key, range));
}

function contentTypeOf(name: string): string {
  if (name.endsWith('.mp4')) return 'video/mp4';
  if (name.endsWith('.m4a')) return 'audio/mp4';
  return 'application/octet-stream';
}

/** Headers of a media answer that the server holding the file decides, passed on as they came. */
const RELAYED_HEADERS = [
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'content-disposition',
  'cache-control',
];

/** Passes on another server's media answer: its status, headers and body, streamed. */
function relayMedia(reply: FastifyReply, answer: Response): FastifyReply {
  reply.code(answer.status);
  for (const name of RELAYED_HEADERS) {
    const value = answer.headers.get(name);
    if (value !== null) reply.header(name, value);
  }
  return reply.send(answer.body ? Readable.fromWeb(answer.body as WebReadableStream) : '');
}
