import type { TerminateResult } from '../../../contract/instances';

/** The recorders of one scope, as this server can reach them (adopted here, or through their server). */
export interface ScopeFleet {
  /** Asks each recorder to stop; one result per id, in order. */
  terminate(ids: string[], reason: string): Promise<TerminateResult[]>;
  logs(id: string, lines: number): Promise<string[]>;
}

/**
 * The fleet of a scope other than this server's own driver's (another server's recorders). Throws
 * an HttpError (503) naming the server when no live server can act on them.
 */
export type OtherScopes = (scope: string) => Promise<ScopeFleet>;
