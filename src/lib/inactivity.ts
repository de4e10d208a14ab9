/** Session inactivity rule (docs/reference.md sections 4 and 9). */
export const INACTIVITY_LIMIT_MS = 24 * 3600 * 1000;
export const INACTIVITY_WARNING_MS = 5 * 60 * 1000;
export const INACTIVITY_CHECK_MS = 60 * 1000;

export type SessionPhase = 'active' | 'warning' | 'expired';

export function sessionPhase(
  lastActivityMs: number,
  nowMs: number,
  limitMs = INACTIVITY_LIMIT_MS,
  warningMs = INACTIVITY_WARNING_MS,
): SessionPhase {
  const remaining = limitMs - (nowMs - lastActivityMs);
  if (remaining <= 0) return 'expired';
  if (remaining <= warningMs) return 'warning';
  return 'active';
}

/** "m:ss" for a countdown. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}
