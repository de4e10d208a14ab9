import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './errors';
import { URL_TOO_LONG } from './url-length';

/**
 * Errors Fastify and Node answer before any route or error handler runs (a malformed or too long
 * URL, oversized headers, a garbled request line): in the API's error shape, with a sentence.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') void reply.code(414).send(errorBody(URL_TOO_LONG));
  else if (error.code === 'FST_ERR_BAD_URL')
    void reply.code(400).send(errorBody('The URL is not valid: it has a malformed percent-encoding'));
  else void reply.code(error.statusCode ?? 400).send(errorBody('The request could not be read'));
}

/** Status lines written here (not node:http's STATUS_CODES: see the import rule for node:http in eslint.config.js). */
const CLIENT_ERRORS: Record<string, [string, string]> = {
  HPE_HEADER_OVERFLOW: ['431 Request Header Fields Too Large', 'The request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: ['408 Request Timeout', 'The request took too long to arrive'],
};

export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, detail] = CLIENT_ERRORS[error.code ?? ''] ?? ['400 Bad Request', 'The request could not be read'];
  const body = JSON.stringify(errorBody(detail));
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
