/** Notification severities and default durations (docs/reference.md sections 3, 4 and 9). */
export type Severity = 'success' | 'error' | 'warning' | 'info';

export const SPEC_NOTIFICATION_DURATIONS: Readonly<Record<Severity, number>> = Object.freeze({
  success: 4000,
  error: 8000,
  warning: 6000,
  info: 6000,
});

/** The durations in use: the reference's, which the component tests stretch for a saturated machine. */
export const NOTIFICATION_DURATIONS: Record<Severity, number> = { ...SPEC_NOTIFICATION_DURATIONS };

/** The duration to use: the given one, else the severity's default. 0 or less means "stays until closed" (null). */
export function notificationTimeout(severity: Severity, duration?: number): number | null {
  const ms = duration ?? NOTIFICATION_DURATIONS[severity];
  return ms > 0 ? ms : null;
}
