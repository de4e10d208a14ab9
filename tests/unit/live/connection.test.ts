import { describe, expect, it } from 'vitest';
import { defaultLiveUrl, KNOWN_TYPES } from '../../../src/live/connection';

describe('defaultLiveUrl', () => {
  it('uses wss on https pages and ws otherwise, on the same host', async () => {
    expect(defaultLiveUrl({ protocol: 'https:', host: 'console.example.org' })).toBe('wss://console.example.org/ws');
    expect(defaultLiveUrl({ protocol: 'http:', host: '127.0.0.1:8000' })).toBe('ws://127.0.0.1:8000/ws');
  });
});

describe('KNOWN_TYPES', () => {
  it('lists every message type the server sends (SPEC.md section 7, Live socket)', () => {
    expect([...KNOWN_TYPES].sort()).toEqual(
      [
        'alarm',
        'alarms',
        'error',
        'initial_data',
        'instance_logs',
        'instance_status_update',
        'launch_complete',
        'launch_error',
        'pong',
        'recordings_update',
        'system_health',
        'system_status_update',
        'welcome',
      ].sort(),
    );
  });
});
