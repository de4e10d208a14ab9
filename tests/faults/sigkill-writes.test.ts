import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../testkit/wait';
import { spawnServer, temporaryDir, type ServerProcess } from './support/server';

const WORKERS = 8;
/** Kill once this many writes were acknowledged, with the workers still sending. */
const ACKS_BEFORE_KILL = 120;
/** ... and a user account (its password hashed at the real cost, tens of ms) has been on its way this long. */
const USER_WRITE_UNDER_WAY_MS = 20;

const newMosqueId = () =>
  Array.from(crypto.randomBytes(10), (byte) => 'abcdefghijklmnopqrstuvwxyz0123456789'[byte % 36]).join('');

/**
 * Starts a mosque create and sends half its body: the server holds the request, waiting for the rest, until
 * it dies. Resolves once the half has left this process; `answered` gives the status, or undefined when the
 * request ended without an answer.
 */
function halfSentWrite(
  baseUrl: string,
  token: string,
  mosqueId: string,
): Promise<{ answered: Promise<number | undefined> }> {
  const body = JSON.stringify({
    mosque_id: mosqueId,
    name: 'Cut off mid-body',
    languages: ['ar'],
    latitude: 21.4,
    longitude: 39.8,
  });
  const request = http.request(new URL('/api/config/mosques', baseUrl), {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
    },
  });
  const answered = new Promise<number | undefined>((resolve) => {
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on('error', () => resolve(undefined));
  });
  return new Promise((resolve) =>
    request.write(body.slice(0, Math.floor(body.length / 2)), () => resolve({ answered })),
  );
}

/**
 * The real server on SQLite, SIGKILLed in the middle of a burst of writes (mosques and user accounts
 * created through the API by concurrent clients). Afterwards the database passes its integrity check,
 * every write that was acknowledged with a 2xx is there, and the server starts again on it.
 */
describe('SIGKILL during a burst of writes', () => {
  const dataDir = temporaryDir('writes');
  let server: ServerProcess | undefined;

  afterAll(async () => {
    await server?.kill('SIGKILL');
  });

  it('keeps every acknowledged write and an intact database', async () => {
    server = await spawnServer({ dataDir });
    const first = server;
    const token = await first.login();
    const acked = { mosques: new Set<string>(), users: new Set<string>() };
    let killed = false;
    /** When each user-account write still unanswered was sent, by worker and write number. */
    const userWritesSent = new Map<string, number>();

    const worker = async (n: number) => {
      for (let i = 0; !killed; i++) {
        const write = `${n}-${i}`;
        // One in six writes is a user account (a password hash, a longer transaction).
        const isUser = i % 6 === 5;
        const id = newMosqueId();
        if (isUser) userWritesSent.set(write, Date.now());
        try {
          const response = isUser
            ? await first.request('POST', '/api/auth/users', {
                token,
                body: {
                  username: `burst-${n}-${id}`,
                  email: `${id}@example.com`,
                  password: 'Burst-pass-12',
                  role: 'user',
                },
              })
            : await first.request('POST', '/api/config/mosques', {
                token,
                body: {
                  mosque_id: id,
                  name: `Burst Mosque ${n}-${i}`,
                  languages: ['ar'],
                  latitude: 21.4,
                  longitude: 39.8,
                },
              });
          if (response.status >= 200 && response.status < 300)
            (isUser ? acked.users : acked.mosques).add(isUser ? `burst-${n}-${id}` : id);
          else if (!killed) throw new Error(`write refused before the kill: ${response.status} ${response.text}`);
        } catch (error) {
          if (!killed) throw error;
        } finally {
          userWritesSent.delete(write);
        }
      }
    };
    // The kill is sent while a user account (a password hash, a longer transaction) is on its way, so it
    // is likely to land inside one; the write certainly in flight is the cut-off create below.
    const userWriteUnderWay = () =>
      [...userWritesSent.values()].some((sentAt) => Date.now() - sentAt >= USER_WRITE_UNDER_WAY_MS);
    const workers = Array.from({ length: WORKERS }, (_, n) => worker(n));
    await waitFor(
      () => acked.mosques.size + acked.users.size >= ACKS_BEFORE_KILL && userWriteUnderWay(),
      `${ACKS_BEFORE_KILL} acknowledged writes with a user account on its way`,
      60_000,
      5,
    );
    // A write certainly in flight when it dies, whatever the machine's pace: a create whose body is half sent.
    // (Counting writes sent but unanswered was not enough: a busy test process read the answers late, and
    // every write it had sent turned out answered before the kill.)
    const cutId = newMosqueId();
    const cut = await halfSentWrite(first.baseUrl, token, cutId);
    await new Promise((r) => setTimeout(r, 50));
    killed = true;
    await first.kill('SIGKILL');
    await Promise.all(workers);

    expect(acked.mosques.size + acked.users.size).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL);
    expect(acked.users.size).toBeGreaterThan(0);
    expect(await cut.answered).toBeUndefined();

    // The file as the crash left it (WAL and all): intact, with every acknowledged row.
    const file = path.join(dataDir, 'capture.db');
    const db = new SqliteDatabase(file);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      const mosques = new Set(
        (db.prepare('select mosque_id from mosques').all() as { mosque_id: string }[]).map((r) => r.mosque_id),
      );
      const users = new Set(
        (db.prepare('select username from users').all() as { username: string }[]).map((r) => r.username),
      );
      expect([...acked.mosques].filter((id) => !mosques.has(id))).toEqual([]);
      expect([...acked.users].filter((name) => !users.has(name))).toEqual([]);
      // Half a request is no write.
      expect(mosques.has(cutId)).toBe(false);
    } finally {
      db.close();
    }

    // And the server comes back on it, serving the same rows; the session signed in before still works.
    server = await spawnServer({ dataDir });
    const listed = await server.request<{ data: { mosques: { mosque_id: string }[] } }>('GET', '/api/config/mosques', {
      token,
    });
    expect(listed.status).toBe(200);
    const served = new Set(listed.body.data.mosques.map((m) => m.mosque_id));
    expect([...acked.mosques].filter((id) => !served.has(id))).toEqual([]);
    const users = await server.request<{ users: { username: string }[] }>('GET', '/api/auth/users', { token });
    const names = new Set(users.body.users.map((u) => u.username));
    expect([...acked.users].filter((name) => !names.has(name))).toEqual([]);
    const after = await server.request('POST', '/api/config/mosques', {
      token,
      body: { name: 'After the crash', languages: ['en'] },
    });
    expect(after.status).toBe(201);
    await server.stop();
    server = undefined;
  });
});
