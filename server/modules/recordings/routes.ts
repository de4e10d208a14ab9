import fs from 'node:fs';
import { recordingRoutes } from '../../../contract/routes/recordings';
import type { AppInstance } from '../../lib/fastify';
import { handle } from '../../lib/route-table';
import type { RecordingsService } from './service';

export function registerRecordingRoutes(app: AppInstance, recordings: RecordingsService): void {
  // The MP4 itself (the console fetches it with its bearer token as a blob). No response schema: it is binary.
  handle(app, recordingRoutes.file, async (request, reply) => {
    const file = await recordings.file(request.params.id);
    return reply
      .header('content-type', 'video/mp4')
      .header('content-length', String(file.size))
      .header('content-disposition', `attachment; filename="${file.name}"`)
      .header('cache-control', 'private, no-store')
      .send(fs.createReadStream(file.path, { start: 0, end: Math.max(0, file.size - 1) }));
  });
}
