import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Access, Endpoint } from '../../contract/endpoint';
import type { Selectable } from 'kysely';
import type { UsersTable } from '../db/schema';

/** A caller's live session, as the access plugin found it. */
export interface AuthenticatedSession {
  sessionId: string;
  user: Selectable<UsersTable>;
}

/** Who may call a route (contract/endpoint). Every /api route must declare one: the app refuses to start otherwise. */
export type { Access };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** The route table's declaration the route was registered from (contract/routes). */
    endpoint?: Endpoint;
    /**
     * The route still answers while the database is down, for a caller whose token carries a valid
     * signature (its session cannot be looked up then). Only for read-only reports about the outage.
     */
    answersDuringDatabaseOutage?: boolean;
  }
  interface FastifyRequest {
    /** The caller's live session; set on every route whose access is not public. */
    auth: AuthenticatedSession | null;
  }
}

export type AppInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** The session of a route whose access rule guarantees one. */
export function sessionOf(request: { auth: AuthenticatedSession | null }): AuthenticatedSession {
  if (!request.auth) throw new Error('Route reached without a session: its access rule is wrong');
  return request.auth;
}
