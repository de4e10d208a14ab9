import type { FastifyRequest } from 'fastify';

/** How much of a refused body is read and dropped before answering; past it the answer goes at once. */
export const READ_OUT_LIMIT = 64 * 1024 * 1024;

/**
 * Resolves once the rest of a refused request body has arrived (read and dropped), the client has
 * gone, or READ_OUT_LIMIT more bytes have come. Fastify refuses a body over the limit when it sees
 * it and closes the connection after its answer: bytes the client was still sending then met a
 * closed socket, whose reset could reach the client before it read the answer (2 of 81 tries of a
 * 2 MB body, every try of 64 MiB sent in chunks by a client that reads once it has sent). Node's own
 * request timeout (REQUEST_TIMEOUT_SECONDS) still ends a body that never finishes.
 */
export function readOutBody(request: FastifyRequest): Promise<void> {
  const body = request.raw;
  if (body.readableEnded || body.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let dropped = 0;
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > READ_OUT_LIMIT) finish();
    };
    const finish = () => {
      body.off('data', onData).off('end', finish).off('close', finish).off('error', finish);
      resolve();
    };
    body.on('data', onData).on('end', finish).on('close', finish).on('error', finish);
    body.resume();
  });
}
