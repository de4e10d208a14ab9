import type { z } from 'zod';

/**
 * Who may call an endpoint. `session-or-link`: a live session, or a signed link the handler verifies
 * itself (media for a <video> element, which cannot send a bearer header).
 */
export type Access = 'public' | 'session' | 'superuser' | 'session-or-link';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One endpoint of the API, declared once: the server registers it, the console's fetchers build their
 * URL and types from it, and the mocks answer it (their answers are parsed with `response` in tests).
 */
export interface Endpoint {
  method: Method;
  /** Fastify's pattern: `/api/auth/users/:id`. */
  path: string;
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The success body; absent for answers that are not JSON (files, Prometheus text). */
  response?: z.ZodType;
  /** The status of a success (200 unless said otherwise). */
  status?: 200 | 201 | 202;
  /** Still answers while the database is down, for a token with a valid signature (read-only outage reports). */
  answersDuringDatabaseOutage?: boolean;
}

/** Keeps the literal types of a declaration (path, method, schemas) so both sides can derive from them. */
export function endpoint<const E extends Endpoint>(declaration: E): E {
  return declaration;
}

/** The names of a path's `:name` parameters. */
export type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The path parameters of an endpoint, as the caller fills them in. */
export type PathParams<E extends Endpoint> = [ParamNames<E['path']>] extends [never]
  ? undefined
  : Record<ParamNames<E['path']>, string | number>;

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;
type Input<S> = S extends z.ZodType ? z.input<S> : undefined;

/** The success body the endpoint answers with. */
export type ResponseOf<E extends Endpoint> = E['response'] extends z.ZodType ? z.infer<E['response']> : unknown;
/** The body a caller sends (defaults may be left out). */
export type BodyOf<E extends Endpoint> = Input<E['body']>;
export type QueryOf<E extends Endpoint> = Input<E['query']>;
/** Parameters and query as the handler sees them, after validation. */
export type ParsedParams<E extends Endpoint> = Infer<E['params']>;
export type ParsedQuery<E extends Endpoint> = Infer<E['query']>;
export type ParsedBody<E extends Endpoint> = Infer<E['body']>;

/** The concrete path of an endpoint: each `:name` replaced by its value, URL-encoded. */
export function endpointPath<E extends Endpoint>(declaration: E, params?: PathParams<E>): string {
  const values = (params ?? {}) as Record<string, string | number>;
  return declaration.path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined)
      throw new Error(`${declaration.method} ${declaration.path} needs the path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** Every endpoint of a table of groups (`{ auth: { login, ... }, users: { ... } }`), in declaration order. */
export function endpointsOf(table: Record<string, Record<string, Endpoint>>): Endpoint[] {
  return Object.values(table).flatMap((group) => Object.values(group));
}

export const endpointLabel = (declaration: Pick<Endpoint, 'method' | 'path'>) =>
  `${declaration.method} ${declaration.path}`;
