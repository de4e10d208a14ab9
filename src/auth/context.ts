import { createContext, useContext } from 'react';
import type { User } from '../../contract/auth';

export type AuthStatus = 'loading' | 'authenticated' | 'anonymous';

/** Why the session ended: an explicit logout, or expiry (inactivity, or the server refusing the token). */
export type SignOutReason = 'logout' | 'session_expired';

export interface AuthContextValue {
  status: AuthStatus;
  user: User | null;
  /** Set once signed out, so the guard knows where to send the operator. */
  signOutReason: SignOutReason | null;
  /** Signs in; rejects with an Error whose message is the one to show (docs/reference.md section 8, Login). */
  login: (username: string, password: string) => Promise<User>;
  /** Ends the session on the server (best effort), forgets the token and signs out. */
  logout: (reason?: SignOutReason) => Promise<void>;
  /** Replaces the signed-in user's details (after they were edited). */
  updateUser: (user: User) => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
