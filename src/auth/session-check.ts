import type { User } from '../../contract/auth';
import { loadAuthApi } from '../api/load-auth';

let started: Promise<User> | null = null;

/**
 * Starts checking the stored session before React renders, so the call leaves as the entry script runs
 * instead of after the first render and behind the page's code. Returns the check, for the page's data
 * to wait on (a read with an unchecked token could sign the operator out for the wrong reason).
 */
export function startSessionCheck(): Promise<User> {
  started = loadAuthApi().then((authApi) => authApi.verifyToken());
  // Whoever takes it reports a failure; until then it is not an unhandled rejection.
  started.catch(() => undefined);
  return started;
}

/** The check started at boot, taken once; any later check (after a sign-out, a new tab's guard) asks afresh. */
export function sessionCheck(): Promise<User> {
  const check = started ?? loadAuthApi().then((authApi) => authApi.verifyToken());
  started = null;
  return check;
}
