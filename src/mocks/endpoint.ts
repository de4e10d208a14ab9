import { http, HttpResponse, type HttpHandler } from 'msw';
import type { z } from 'zod';
import {
  endpointLabel,
  type Endpoint,
  type ParamNames,
  type ParsedBody,
  type ParsedQuery,
} from '../../contract/endpoint';
import { invalidRequestBody, type RequestPart } from '../../contract/validation';
import { authorize } from './http';
import type { MockUser } from './store';

/** What a mock's resolver gets: the request, its raw path parameters, the caller and the parsed body. */
export interface MockCall<E extends Endpoint> {
  request: Request;
  params: Record<ParamNames<E['path']>, string>;
  /** The signed-in caller when the endpoint needs a session (the mock has already answered 401/403 otherwise). */
  user: E['access'] extends 'session' | 'superuser' ? MockUser : null;
  /** The body and query as the endpoint's schemas parse them (the mock has already answered 400 when they do not). */
  body: ParsedBody<E>;
  query: ParsedQuery<E>;
}

export type MockResolver<E extends Endpoint> = (call: MockCall<E>) => Response | Promise<Response>;

const violations: string[] = [];

function violation(message: string): void {
  violations.push(message);
  console.error(`Mock out of contract: ${message}`);
}

/** The mock answers that broke their endpoint's declaration since the last call; tests fail on any. */
export function takeContractViolations(): string[] {
  return violations.splice(0);
}

async function checkAnswer(declaration: Endpoint, response: Response): Promise<void> {
  if (!response.ok) return;
  const label = endpointLabel(declaration);
  const expected = declaration.status ?? 200;
  if (response.status !== expected) violation(`${label}: answered ${response.status}, the contract says ${expected}`);
  if (!declaration.response) return;
  const parsed = declaration.response.safeParse(await response.clone().json());
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    violation(`${label}: the answer does not match the contract's response schema (${issues.join('; ')})`);
  }
}

/** The request's body and query through the endpoint's schemas (in Fastify's order), or the server's 400 answer. */
async function parseRequest(
  declaration: Endpoint,
  request: Request,
): Promise<{ body: unknown; query: unknown } | Response> {
  const parts: Array<[RequestPart, z.ZodType | undefined, () => Promise<unknown>]> = [
    ['body', declaration.body, () => request.json().catch(() => undefined)],
    ['querystring', declaration.query, () => Promise.resolve(Object.fromEntries(new URL(request.url).searchParams))],
  ];
  const parsed: Partial<Record<RequestPart, unknown>> = {};
  for (const [part, schema, read] of parts) {
    if (!schema) continue;
    const result = schema.safeParse(await read());
    if (!result.success) {
      const issues = result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
      return HttpResponse.json(invalidRequestBody(part, issues), { status: 400 });
    }
    parsed[part] = result.data;
  }
  return { body: parsed.body, query: parsed.querystring };
}

/**
 * The mock of an endpoint of the route table (contract/routes): it answers where the server would, asks
 * for the session the declaration asks for, refuses a body its schema refuses, and every success it sends
 * is checked against the declared status and response schema.
 */
export function mock<E extends Endpoint>(declaration: E, resolver: MockResolver<E>): HttpHandler {
  const method = declaration.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
  return http[method](declaration.path, async ({ request, params }) => {
    let user: MockUser | null = null;
    if (declaration.access === 'session' || declaration.access === 'superuser') {
      const caller = authorize(request, declaration.access);
      if (caller instanceof Response) return caller;
      user = caller;
    }
    const input = await parseRequest(declaration, request);
    if (input instanceof Response) return input;
    const response = await resolver({
      request,
      params: params as MockCall<E>['params'],
      user: user as MockCall<E>['user'],
      body: input.body as ParsedBody<E>,
      query: input.query as ParsedQuery<E>,
    });
    await checkAnswer(declaration, response);
    return response;
  });
}
