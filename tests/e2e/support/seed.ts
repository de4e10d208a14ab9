import path from 'node:path';
import Database from 'better-sqlite3';

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
