import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { NOTIFICATION_DURATIONS, notificationTimeout, type Severity } from '../lib/notifications';
import { NotifyContext, type Notification, type NotifyApi } from './context';

/** The snackbar stack is loaded with the first notification, keeping it out of the login page's bundle. */
const NotificationStack = lazy(() => import('./NotificationStack'));

/** Top-right snackbars that close themselves after their duration (docs/reference.md section 4, Notifications). */
export function NotificationProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<Notification[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const close = useCallback((id: number) => {
    const timer = timers.current.get(id);
    if (timer) clearTimeout(timer);
    timers.current.delete(id);
    setItems((current) => current.filter((item) => item.id !== id));
  }, []);

  const notify = useCallback(
    (message: string, severity: Severity = 'info', duration?: number) => {
      const id = nextId.current++;
      const effective = duration ?? NOTIFICATION_DURATIONS[severity];
      setItems((current) => [...current, { id, message, severity, duration: effective, open: true }]);
      const timeout = notificationTimeout(severity, duration);
      if (timeout !== null)
        timers.current.set(
          id,
          setTimeout(() => close(id), timeout),
        );
      return id;
    },
    [close],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const api = useMemo<NotifyApi>(
    () => ({
      notify,
      close,
      success: (message, duration) => notify(message, 'success', duration),
      error: (message, duration) => notify(message, 'error', duration),
      warning: (message, duration) => notify(message, 'warning', duration),
      info: (message, duration) => notify(message, 'info', duration),
    }),
    [notify, close],
  );

  return (
    <NotifyContext.Provider value={api}>
      {children}
      {items.length > 0 && (
        <Suspense fallback={null}>
          <NotificationStack items={items} onClose={close} />
        </Suspense>
      )}
    </NotifyContext.Provider>
  );
}
