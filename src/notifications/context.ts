import { createContext, useContext } from 'react';
import type { Severity } from '../lib/notifications';

export interface Notification {
  id: number;
  message: string;
  severity: Severity;
  /** Milliseconds before it closes itself; 0 or less: stays until closed. */
  duration: number;
  open: boolean;
}

export interface NotifyApi {
  notify: (message: string, severity?: Severity, duration?: number) => number;
  success: (message: string, duration?: number) => number;
  error: (message: string, duration?: number) => number;
  warning: (message: string, duration?: number) => number;
  info: (message: string, duration?: number) => number;
  close: (id: number) => void;
}

export const NotifyContext = createContext<NotifyApi | null>(null);

export function useNotify(): NotifyApi {
  const value = useContext(NotifyContext);
  if (!value) throw new Error('useNotify must be used inside <NotificationProvider>');
  return value;
}
