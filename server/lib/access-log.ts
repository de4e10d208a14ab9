import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Paths whose requests an operator reads at info: the API, the live socket, metrics. */
const LOGGED_AT_INFO = /^\/(api|ws|metrics)(\/|$|\?)/;

/**
 * One line per answered request, `GET /api/instances 200 12 ms`, in place of Fastify's two ("incoming
 * request", "request completed"). Console assets and demo stream segments, dozens per page or per
 * second, are logged only at debug. The query string is left out: a signed media link carries its token
 * there. Fastify's error lines are kept; its "not found" line is this one's 404.
 */
export class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const path = request.url.split('?')[0];
    const ms = Math.round(reply.elapsedTime);
    const line = { method: request.method, path, statusCode: reply.statusCode, ms };
    const message = `${request.method} ${path} ${reply.statusCode} ${ms} ms`;
    if (error) reply.log.error({ ...line, err: error }, message);
    else if (LOGGED_AT_INFO.test(request.url)) reply.log.info(line, message);
    else reply.log.debug(line, message);
  }
}
