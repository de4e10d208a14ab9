import type { FastifyReply } from 'fastify';

/**
 * One JSON body per response object: a list that the service shares between readers until it
 * changes is checked against its schema and serialised once, not once per request. Keyed weakly, so
 * a retired list takes its body with it.
 */
export function encodedBodies<T extends object>(encode: (value: T) => unknown): (value: T) => string {
  const bodies = new WeakMap<T, string>();
  return (value) => {
    let body = bodies.get(value);
    if (body === undefined) {
      body = JSON.stringify(encode(value));
      bodies.set(value, body);
    }
    return body;
  };
}

/**
 * Sends a body already serialised: a string with a JSON content type goes out as it is (Fastify skips
 * the route's serializer). The route's type provider only knows the object form, hence the cast.
 */
export function sendEncoded<T>(reply: FastifyReply, body: string): T {
  return reply.type('application/json; charset=utf-8').send(body) as unknown as T;
}
