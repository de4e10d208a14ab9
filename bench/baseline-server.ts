/**
 * The baseline of the API benchmark: a bare Fastify route answering the same JSON body the real
 * endpoint returns, with no session, database or schema work, in the same kind of process.
 */
import fs from 'node:fs';
import Fastify from 'fastify';

const body: unknown = JSON.parse(fs.readFileSync(process.env.BASELINE_BODY_FILE ?? '', 'utf8'));
const app = Fastify({ logger: false });
app.get('/json', async () => body);
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
