/**
 * The auth calls, loaded on first use: the login page appears without the HTTP client and the contract's
 * schemas, which arrive with the first call (signing in, or asking about the first-run password).
 */
export const loadAuthApi = () => import('./auth');
