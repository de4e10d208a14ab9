import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { TestApp } from './test-app';

/** A recording's file as a recorder leaves it: a testkit programme (picture and tone, or picture alone) in MP4. */
export function recordingFile(file: string, programme: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', programme, '-c', 'copy', file]);
}

export interface Probed {
  format: { format_name: string; duration: string };
  streams: { codec_type: string; codec_name: string }[];
}

export function probe(file: string): Probed {
  return JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file], {
      encoding: 'utf8',
    }),
  ) as Probed;
}

/** Finished ad-hoc recordings of a minute (`rec-x` by instance `cap-x`), their media at `filePath` (a path or a bucket key). */
export async function seedFinishedRecordings(
  t: TestApp,
  recordings: { id: string; filePath: string; bytes: number }[],
): Promise<void> {
  const now = t.clock.now().toISOString();
  const db = t.app.ctx.db.kysely;
  for (const { id, filePath, bytes } of recordings) {
    const instanceId = id.replace('rec-', 'cap-');
    await db
      .insertInto('instances')
      .values({
        id: instanceId,
        provider: 'local',
        provider_instance_id: instanceId,
        name: `capture-${instanceId}`,
        state: 'stopped',
        instance_type: 'local',
        mosque_id: null,
        url: 'https://streams.example.com/live.m3u8',
        method: 'api',
        duration: 60,
        width: 320,
        height: 240,
        image_id: null,
        launch_time: now,
        running_at: now,
        ended_at: now,
        state_reason: null,
        job_id: null,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto('recordings')
      .values({
        id,
        instance_id: instanceId,
        mosque_id: null,
        url: 'https://streams.example.com/live.m3u8',
        status: 'captured',
        reason: null,
        started_at: '2026-11-20T08:55:00.000Z',
        ended_at: '2026-11-20T08:56:00.000Z',
        updated_at: now,
        duration_seconds: 60,
        bytes,
        file_path: filePath,
      })
      .execute();
  }
}
