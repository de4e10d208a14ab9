/** The session token lives in localStorage under `token` (docs/reference.md section 3). No axios here: the login route stays small. */
export const TOKEN_KEY = 'token';

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage unavailable: nothing to clear
  }
}

type Listener = () => void;
let unauthorizedListener: Listener | null = null;

/** The auth provider registers here to learn that the server refused the session (a 401 on an ordinary call). */
export function setUnauthorizedListener(listener: Listener | null): void {
  unauthorizedListener = listener;
}

export function notifyUnauthorized(): void {
  unauthorizedListener?.();
}
