import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import type { ErrorBody } from '../../contract/common';
import { maskUrlSecrets } from '../../recorder/url-secrets';
import { invalidRequestBody, type RequestIssue, type RequestPart } from '../../contract/validation';
import type { AppInstance } from '../lib/fastify';
import { HttpError } from '../lib/http-error';
import { readOutBody } from './read-out-body';

const DATABASE_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  'SQLITE_BUSY',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'SQLITE_FULL',
]);

/** Every refusal's sentence: one that quotes a stream URL (a stream test that recorded nothing) shows it masked. */
export function errorBody(text: string, fields?: Record<string, string>): ErrorBody {
  const detail = maskUrlSecrets(text);
  return fields && Object.keys(fields).length > 0
    ? { success: false, detail, error: detail, fields }
    : { success: false, detail, error: detail };
}

/** The first sentence per field path of a validation failure (issues without a path belong to no field). */
function fieldMessages(issues: Array<{ path: string; message: string }>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const { path, message } of issues) {
    if (path && !(path in fields)) fields[path] = message;
  }
  return fields;
}

function zodDetail(error: ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

interface ValidationIssue {
  instancePath?: string;
  message?: string;
}

/** Fastify's form of a schema failure, as the contract's request issue. */
const requestIssue = (issue: ValidationIssue): RequestIssue => ({
  path: issue.instancePath?.replace(/^\//, '').replaceAll('/', '.') ?? '',
  message: issue.message ?? 'Invalid value',
});

export function isDatabaseDown(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && DATABASE_DOWN_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connect ECONNREFUSED|database system is (shutting down|starting up)|timeout exceeded when trying to connect|The database connection is not open/i.test(
    message,
  );
}

/** One place that turns every failure into `{ success: false, detail, error }` with an honest status. */
export function registerErrorHandling(app: AppInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send(errorBody(error.message));
    }
    if (error instanceof ZodError) {
      const fields = fieldMessages(
        error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
      );
      return reply.code(400).send(errorBody(zodDetail(error), fields));
    }
    if (error.validation) {
      const issues = (error.validation as ValidationIssue[]).map(requestIssue);
      return reply.code(400).send(invalidRequestBody(error.validationContext as RequestPart | undefined, issues));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return readOutBody(request).then(() => reply.code(413).send(errorBody('Request body is too large')));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send(errorBody('Unsupported content type: send application/json'));
    }
    if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return reply.code(400).send(errorBody('Request body is empty'));
    if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return reply.code(400).send(errorBody('Request body is not valid JSON'));
    }
    if (isDatabaseDown(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return reply.code(503).send(errorBody('The database is unavailable right now; try again shortly'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send(errorBody(error.message));
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody('Internal server error'));
  });
}
