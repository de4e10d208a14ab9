import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { User } from '../../contract/auth';
import { loadAuthApi } from '../api/load-auth';
import { clearToken, getToken, setToken, setUnauthorizedListener } from '../api/token';
import { AuthContext, type AuthContextValue, type AuthStatus, type SignOutReason } from './context';
import { sessionCheck } from './session-check';

interface AuthState {
  status: AuthStatus;
  user: User | null;
  signOutReason: SignOutReason | null;
}

const initialState = (): AuthState => ({
  status: getToken() ? 'loading' : 'anonymous',
  user: null,
  signOutReason: null,
});

/**
 * Holds the session: verifies a stored token on load (the guard shows a spinner meanwhile), signs in and out.
 * A failed verification removes the token and signs out (docs/reference.md section 4, Session).
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(initialState);

  const signOut = useCallback((reason: SignOutReason | null) => {
    clearToken();
    setState({ status: 'anonymous', user: null, signOutReason: reason });
  }, []);

  useEffect(() => {
    if (!getToken()) return;
    let cancelled = false;
    sessionCheck().then(
      (user) => {
        if (!cancelled) setState({ status: 'authenticated', user, signOutReason: null });
      },
      () => {
        if (!cancelled) signOut(null);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [signOut]);

  useEffect(() => {
    // Any ordinary call answered 401 means the server ended the session (expiry, revocation).
    setUnauthorizedListener(() => {
      if (getToken()) signOut('session_expired');
    });
    return () => setUnauthorizedListener(null);
  }, [signOut]);

  const login = useCallback(async (username: string, password: string) => {
    const authApi = await loadAuthApi();
    try {
      const response = await authApi.login({ username, password });
      setToken(response.access_token);
      setState({ status: 'authenticated', user: response.user, signOutReason: null });
      return response.user;
    } catch (error) {
      throw new Error(authApi.loginErrorMessage(error), { cause: error });
    }
  }, []);

  const logout = useCallback(
    async (reason: SignOutReason = 'logout') => {
      if (getToken()) {
        try {
          const authApi = await loadAuthApi();
          await authApi.logout();
        } catch {
          // The session is forgotten here either way; the server also lets it lapse.
        }
      }
      signOut(reason);
    },
    [signOut],
  );

  const updateUser = useCallback((user: User) => {
    setState((current) => (current.user && current.user.id === user.id ? { ...current, user } : current));
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, login, logout, updateUser }),
    [state, login, logout, updateUser],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
