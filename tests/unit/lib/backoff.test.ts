import { describe, expect, it } from 'vitest';
import { MAX_RECONNECT_ATTEMPTS, mayReconnect, PING_INTERVAL_MS, reconnectDelay } from '../../../src/lib/backoff';

describe('reconnectDelay', () => {
  it('starts at 1 s and doubles per attempt', () => {
    expect([0, 1, 2, 3, 4].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 16000]);
  });

  it('is capped at 30 s', () => {
    expect(reconnectDelay(5)).toBe(30_000);
    expect(reconnectDelay(9)).toBe(30_000);
    expect(reconnectDelay(50)).toBe(30_000);
  });

  it('treats odd input as the first attempt', () => {
    expect(reconnectDelay(-3)).toBe(1000);
  });
});

describe('mayReconnect', () => {
  it('allows at most 10 attempts', () => {
    expect(MAX_RECONNECT_ATTEMPTS).toBe(10);
    expect(mayReconnect(0)).toBe(true);
    expect(mayReconnect(9)).toBe(true);
    expect(mayReconnect(10)).toBe(false);
  });

  it('pings every 30 s', () => {
    expect(PING_INTERVAL_MS).toBe(30_000);
  });
});
