/** Live-connection reconnect back-off (docs/reference.md sections 4 and 9). */
export const RECONNECT_BASE_MS = 1000;
export const RECONNECT_MAX_MS = 30_000;
export const MAX_RECONNECT_ATTEMPTS = 10;
export const PING_INTERVAL_MS = 30_000;

/** Delay before reconnect attempt `attempt` (0-based): 1 s doubled per attempt, capped at 30 s. */
export function reconnectDelay(attempt: number): number {
  const safe = Math.max(0, Math.floor(attempt));
  return Math.min(RECONNECT_BASE_MS * 2 ** safe, RECONNECT_MAX_MS);
}

/** Whether another attempt may be made after `attempts` failed ones. */
export function mayReconnect(attempts: number): boolean {
  return attempts < MAX_RECONNECT_ATTEMPTS;
}
