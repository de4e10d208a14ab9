import type { TerminateResult } from '../../../contract/instances';
import { HttpError, serviceUnavailable } from '../../lib/http-error';
import type { OtherScopes, ScopeFleet } from '../instances';
import type { InternalCalls } from './internal-calls';
import type { ScopeOwners } from './owners';

/**
 * The recorders of other scopes: those this server adopted act here (`adopted`), the others through
 * a signed call to the live server that runs them (its internal address). A server that does not
 * answer in time is reported as such, with its id and address, never taken as done.
 */
export function otherScopesThroughServers(deps: {
  owners: ScopeOwners;
  calls: InternalCalls;
  adopted: (scope: string) => ScopeFleet | undefined;
}): OtherScopes {
  return async (scope) => {
    const here = deps.adopted(scope);
    if (here) return here;
    const owner = await deps.owners.find(scope);
    if (owner.kind === 'down') throw serviceUnavailable(`This recorder runs on another server, and ${owner.detail}`);
    const { id, internal_address: address } = owner.server;
    const ask = async <T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> => {
      let response: Response;
      try {
        response = await deps.calls.call(owner.server, method, url, { body });
      } catch (error) {
        throw serviceUnavailable(
          `Server ${id} (${address}), which runs this recorder, did not answer: ${(error as Error).message}`,
        );
      }
      const answer = (await response.json().catch(() => ({}))) as T & { detail?: string };
      if (!response.ok)
        throw new HttpError(
          response.status,
          `Server ${id} (${address}) answered: ${answer.detail ?? response.statusText}`,
        );
      return answer;
    };
    return {
      terminate: async (ids, reason) =>
        (
          await ask<{ results: TerminateResult[] }>('POST', '/internal/instances/terminate', {
            instance_ids: ids,
            reason,
          })
        ).results,
      logs: async (instanceId, lines) =>
        (
          await ask<{ logs: string[] }>(
            'GET',
            `/internal/instances/${encodeURIComponent(instanceId)}/logs?lines=${lines}`,
          )
        ).logs,
    };
  };
}
