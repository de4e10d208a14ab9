import type { User } from '../../contract/auth';
import { loadAuthApi } from '../api/load-auth';
import { plainGet } from '../api/plain-read';

/** contract/routes/auth's verifyToken, spelled out: the route table's schemas stay out of the entry (tests hold them equal). */
export const VERIFY_TOKEN_PATH = '/api/auth/verify-token';

/**
 * The stored session's check at boot, by fetch: it leaves as the entry script runs, not once the auth
 * calls' chunk (the HTTP client and the contract's schemas) has arrived and run, and it does not queue
 * behind the page's chunks for one of the browser's six connections.
 */
async function verifyStoredToken(): Promise<User> {
  const answer = await plainGet<{ valid?: boolean; user?: User }>(VERIFY_TOKEN_PATH);
  if (!answer?.valid || !answer.user) throw new Error('Token is not valid');
  return answer.user;
}

let started: Promise<User> | null = null;

/**
 * Starts checking the stored session before React renders, so the call leaves as the entry script runs
 * instead of after the first render and behind the page's code. Returns the check.
 */
export function startSessionCheck(): Promise<User> {
  started = verifyStoredToken();
  // Whoever takes it reports a failure; until then it is not an unhandled rejection.
  started.catch(() => undefined);
  return started;
}

/**
 * Holds the boot check's answer until `ready` settles (main.tsx: the shell's and the page's modules).
 * The session is checked in a few milliseconds and the modules take longer: signed in before they
 * had arrived, the console rendered the shell and the page as they came, each suspending behind a
 * spinner first, and React holds back content revealed after a spinner (up to 300 ms).
 */
export function holdSessionCheck(ready: Promise<unknown>): void {
  if (!started) return;
  const settled = ready.then(
    () => undefined,
    () => undefined,
  );
  started = started.then((user) => settled.then(() => user));
  started.catch(() => undefined);
}

/** The check started at boot, taken once; any later check (after a sign-out, a new tab's guard) asks afresh. */
export function sessionCheck(): Promise<User> {
  const check = started ?? loadAuthApi().then((authApi) => authApi.verifyToken());
  started = null;
  return check;
}
