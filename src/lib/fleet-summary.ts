import type { Instance, Recording } from '../../contract/instances';
import type { SystemStatus } from '../../contract/live';

/** Running instances at which the Dashboard's bar is full (docs/reference.md section 9). */
export const DASHBOARD_BAR_FULL = 20;
/** The Dashboard's health bar: 95 while the live feed is connected, else 20 (docs/reference.md section 9). */
export const HEALTH_CONNECTED = 95;
export const HEALTH_DISCONNECTED = 20;

export interface FleetSummary {
  running: number;
  pending: number;
  total: number;
}

export function summarizeFleet(instances: readonly Pick<Instance, 'state'>[]): FleetSummary {
  let running = 0;
  let pending = 0;
  for (const instance of instances) {
    if (instance.state === 'running') running += 1;
    else if (instance.state === 'pending') pending += 1;
  }
  return { running, pending, total: instances.length };
}

/** The running bar's value in percent: full at 20 running instances. */
export function runningBarValue(running: number): number {
  if (!Number.isFinite(running) || running <= 0) return 0;
  return Math.min(100, (running / DASHBOARD_BAR_FULL) * 100);
}

export function healthBarValue(connected: boolean): number {
  return connected ? HEALTH_CONNECTED : HEALTH_DISCONNECTED;
}

export function activeRecordings(recordings: readonly Pick<Recording, 'status'>[]): number {
  return recordings.filter((recording) => recording.status === 'recording').length;
}

/** "Operational", "Degraded", "Down", or "Unknown" before the first report. */
export function systemStatusLabel(status: SystemStatus | null | undefined): string {
  if (!status) return 'Unknown';
  return status.charAt(0).toUpperCase() + status.slice(1);
}

/** Green only when operational (docs/reference.md section 2, Dashboard). */
export function systemStatusColor(
  status: SystemStatus | null | undefined,
): 'success' | 'warning' | 'error' | 'default' {
  switch (status) {
    case 'operational':
      return 'success';
    case 'degraded':
      return 'warning';
    case 'down':
      return 'error';
    default:
      return 'default';
  }
}

/** Milliseconds as the monitoring page shows them: "—" when unmeasured, else whole ms (one decimal under 10 ms). */
export function formatMs(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
}

/** Seconds with one decimal, "—" when unmeasured. */
export function formatSeconds(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return `${value.toFixed(1)} s`;
}
