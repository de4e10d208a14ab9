import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { seededMosqueId } from '../../../testkit/seed-mosques';

/** Ten failed captures of earlier days, written straight into the server's SQLite database. */
export function seedFailedCaptures(dataDir: string): void {
  const db = new Database(path.join(dataDir, 'capture.db'));
  try {
    const insertInstance = db.prepare(
      `insert into instances (id, provider, scope, provider_instance_id, name, state, instance_type, mosque_id, url, method, duration, width, height, launch_time, ended_at, updated_at)
       values (?, 'local', '', ?, ?, 'terminated', 'local', null, 'https://streams.example.com/gone.m3u8', 'api', 60, 320, 240, ?, ?, ?)`,
    );
    const insertRecording = db.prepare(
      `insert into recordings (id, instance_id, mosque_id, url, status, started_at, ended_at, bytes, duration_seconds, file_path, reason, updated_at)
       values (?, ?, null, 'https://streams.example.com/gone.m3u8', 'failed', ?, ?, 0, 0, null, 'The stream never came', ?)`,
    );
    for (let day = 1; day <= 10; day++) {
      const at = `2026-10-${String(day).padStart(2, '0')}T10:00:00.000Z`;
      const id = `seed${String(day).padStart(8, '0')}`;
      insertInstance.run(`cap-${id}`, `cap-${id}`, `capture-${id}`, at, at, at);
      insertRecording.run(`rec-${id}`, `cap-${id}`, at, at, at);
    }
  } finally {
    db.close();
  }
}

/**
 * Two captured recordings of each seeded mosque (`Mosque <i>`, id `seededMosqueId(i)`), each with a real
 * one-second MP4 in the local store, written straight into the database and the store before the server starts.
 */
export function seedRecordingsLibrary(dataDir: string, mosqueCount: number): void {
  const sample = path.join(dataDir, 'sample.mp4');
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=160x120:rate=10',
    '-t',
    '1',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-y',
    sample,
  ]);
  const bytes = fs.statSync(sample).size;
  const db = new Database(path.join(dataDir, 'capture.db'));
  try {
    const insertInstance = db.prepare(
      `insert into instances (id, provider, scope, provider_instance_id, name, state, instance_type, mosque_id, url, method, duration, width, height, launch_time, ended_at, updated_at)
       values (?, 'local', '', ?, ?, 'terminated', 'local', ?, 'https://streams.example.com/live.m3u8', 'api', 60, 160, 120, ?, ?, ?)`,
    );
    const insertRecording = db.prepare(
      `insert into recordings (id, instance_id, mosque_id, url, status, started_at, ended_at, bytes, duration_seconds, file_path, reason, updated_at)
       values (?, ?, ?, 'https://streams.example.com/live.m3u8', 'captured', ?, ?, ?, 1, ?, null, ?)`,
    );
    for (let i = 0; i < mosqueCount; i++) {
      for (const week of [0, 1]) {
        const mosqueId = seededMosqueId(i);
        const at = new Date(Date.UTC(2026, 9, 2 + 7 * week, 10, i)).toISOString();
        const id = `lib${String(i).padStart(5, '0')}w${week}`;
        const file = path.join(dataDir, 'recordings', mosqueId, at.slice(0, 10), `rec-${id}`, 'recording.mp4');
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.copyFileSync(sample, file);
        insertInstance.run(`cap-${id}`, `cap-${id}`, `capture-${id}`, mosqueId, at, at, at);
        insertRecording.run(`rec-${id}`, `cap-${id}`, mosqueId, at, at, bytes, file, at);
      }
    }
  } finally {
    db.close();
  }
}
