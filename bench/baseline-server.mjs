/**
 * The bare baseline of the HTTP benchmarks: Fastify with no session, database, schema or logging,
 * run by plain `node` like the built server. Plain JavaScript on purpose: no loader at start.
 *   GET /ok      a small JSON answer (cold start and memory)
 *   GET /json    the body of BASELINE_BODY_FILE, serialised on every request
 *   GET /cached  the same body sent as the stored string (the work of a route that caches its answer)
 *   GET /mosques-page  with BASELINE_DB_FILE and BASELINE_TOKEN: Config's first page done the bare way,
 *                on every request: the bearer token checked against the one session it knows (a map
 *                lookup, as the server decides a signed-in request from memory), the same two statements
 *                on the same SQLite file (the page and the count), each row turned into the answer's
 *                mosque (languages parsed, flags and numbers typed) and the body serialised.
 */
import fs from 'node:fs';
import Fastify from 'fastify';

const text = process.env.BASELINE_BODY_FILE ? fs.readFileSync(process.env.BASELINE_BODY_FILE, 'utf8') : '{}';
const body = JSON.parse(text);
const app = Fastify({ logger: false });
app.get('/ok', async () => ({ ok: true }));
app.get('/json', async () => body);
app.get('/cached', async (_request, reply) => reply.type('application/json; charset=utf-8').send(text));

if (process.env.BASELINE_DB_FILE) {
  const { default: Sqlite } = await import('better-sqlite3');
  const sqlite = new Sqlite(process.env.BASELINE_DB_FILE, { readonly: true });
  const sessions = new Map([[process.env.BASELINE_TOKEN, { user: 'bench' }]]);
  // The statements the server's page query compiles to for ?limit=10 (default order: created_at, then id).
  const page = sqlite.prepare('select * from "mosques" order by "created_at" asc, "mosque_id" asc limit ? offset ?');
  const count = sqlite.prepare('select count(*) as "total" from "mosques"');
  const mosqueOf = (row) => ({
    mosque_id: row.mosque_id,
    name: row.name,
    name_ar: row.name_ar,
    google_maps_url: row.google_maps_url,
    languages: JSON.parse(row.languages),
    ID_token: row.id_token,
    active: row.active === 1,
    broadcast_status: row.broadcast_status,
    latitude: row.latitude === null ? null : Number(row.latitude),
    longitude: row.longitude === null ? null : Number(row.longitude),
    timezone: row.timezone,
    city: row.city,
    district: row.district,
    country: row.country,
    country_code: row.country_code,
    calculation_method: row.calculation_method,
    fixed_jumuah_time: row.fixed_jumuah_time,
    created_at: row.created_at,
    updated_at: row.updated_at,
  });
  app.get('/mosques-page', async (request, reply) => {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (!match || !sessions.has(match[1])) return reply.code(401).send({ success: false });
    const limit = Number(request.query.limit ?? 10);
    const mosques = page.all(limit, Number(request.query.offset ?? 0)).map(mosqueOf);
    const { total } = count.get();
    return reply
      .type('application/json; charset=utf-8')
      .send(JSON.stringify({ success: true, data: { mosques, total } }));
  });
}
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
