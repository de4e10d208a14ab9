import { describe, expect, it } from 'vitest';
import {
  activeRecordings,
  formatMs,
  formatSeconds,
  healthBarValue,
  runningBarValue,
  summarizeFleet,
  systemStatusColor,
  systemStatusLabel,
} from '../../../src/lib/fleet-summary';

describe('fleet summary', () => {
  it('counts running, pending and all listed instances', () => {
    const states = ['running', 'running', 'pending', 'stopped', 'terminated', 'stopping'] as const;
    expect(summarizeFleet(states.map((state) => ({ state })))).toEqual({ running: 2, pending: 1, total: 6 });
    expect(summarizeFleet([])).toEqual({ running: 0, pending: 0, total: 0 });
  });

  it('fills the running bar at 20 instances', () => {
    expect(runningBarValue(0)).toBe(0);
    expect(runningBarValue(5)).toBe(25);
    expect(runningBarValue(20)).toBe(100);
    expect(runningBarValue(35)).toBe(100);
    expect(runningBarValue(Number.NaN)).toBe(0);
  });

  it('puts the health bar at 95 when connected and 20 otherwise', () => {
    expect(healthBarValue(true)).toBe(95);
    expect(healthBarValue(false)).toBe(20);
  });

  it('counts recordings in progress', () => {
    expect(
      activeRecordings([
        { status: 'recording' },
        { status: 'captured' },
        { status: 'recording' },
        { status: 'failed' },
      ]),
    ).toBe(2);
  });

  it('colours the system status green only when operational', () => {
    expect(systemStatusColor('operational')).toBe('success');
    expect(systemStatusColor('degraded')).toBe('warning');
    expect(systemStatusColor('down')).toBe('error');
    expect(systemStatusColor(null)).toBe('default');
    expect(systemStatusLabel('degraded')).toBe('Degraded');
    expect(systemStatusLabel(null)).toBe('Unknown');
  });

  it('formats measured figures, with a dash when nothing was measured', () => {
    expect(formatMs(null)).toBe('—');
    expect(formatMs(3.456)).toBe('3.5 ms');
    expect(formatMs(41.6)).toBe('42 ms');
    expect(formatSeconds(6.44)).toBe('6.4 s');
    expect(formatSeconds(undefined)).toBe('—');
  });
});
