import { ACTIVE_INSTANCE_STATES, type Instance } from '../../../contract/instances';
import { countOf } from '../../../contract/plural';

export interface FleetSummary {
  running: number;
  pending: number;
  /** Running plus pending: stopping, stopped and terminated instances are not counted (docs/reference.md section 2). */
  total: number;
}

export function fleetSummary(instances: readonly Instance[]): FleetSummary {
  const running = instances.filter((instance) => instance.state === 'running').length;
  const pending = instances.filter((instance) => instance.state === 'pending').length;
  return { running, pending, total: running + pending };
}

/** Instances that still hold a recorder (pending or running): only these can be selected and terminated. */
export function isActive(instance: Pick<Instance, 'state'>): boolean {
  return (ACTIVE_INSTANCE_STATES as readonly string[]).includes(instance.state);
}

/** The confirmation of Terminate Selected (docs/reference.md section 5). */
export function terminateSelectedMessage(count: number): string {
  return `Are you sure you want to terminate ${countOf(count, 'selected instance')}? This action cannot be undone.`;
}

/** "1.5 MB": bytes in the largest unit that keeps the figure at or above 1. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return 'N/A';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** "1h 2m 5s", "3m 0s", "42s"; N/A when unknown. */
export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return 'N/A';
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${m}m ${s}s`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}
