/**
 * The bare baseline of the HTTP benchmarks: Fastify with no session, database, schema or logging,
 * run by plain `node` like the built server. Plain JavaScript on purpose: no loader at start.
 *   GET /ok      a small JSON answer (cold start and memory)
 *   GET /json    the body of BASELINE_BODY_FILE, serialised on every request
 *   GET /cached  the same body sent as the stored string (the work of a route that caches its answer)
 */
import fs from 'node:fs';
import Fastify from 'fastify';

const text = process.env.BASELINE_BODY_FILE ? fs.readFileSync(process.env.BASELINE_BODY_FILE, 'utf8') : '{}';
const body = JSON.parse(text);
const app = Fastify({ logger: false });
app.get('/ok', async () => ({ ok: true }));
app.get('/json', async () => body);
app.get('/cached', async (_request, reply) => reply.type('application/json; charset=utf-8').send(text));
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
