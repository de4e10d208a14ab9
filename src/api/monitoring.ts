import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  MONITORING_POLL_MS,
  type RecordingStats,
  type SystemHealth,
  type SystemMetrics,
} from '../../contract/monitoring';
import { monitoringRoutes } from '../../contract/routes/monitoring';
import { call } from './endpoint';

/*
 * GET /api/monitoring/system, /metrics and /recordings (docs/reference.md section 7, Monitoring), each polled every 30 s.
 * The key prefix ['monitoring'] lets a page refresh all three at once.
 */
export const monitoringQueryKeys = {
  all: ['monitoring'] as const,
  system: ['monitoring', 'system'] as const,
  metrics: ['monitoring', 'metrics'] as const,
  recordings: ['monitoring', 'recordings'] as const,
};

export async function getSystemHealth(): Promise<SystemHealth> {
  return (await call(monitoringRoutes.system)).data;
}

export async function getSystemMetrics(): Promise<SystemMetrics> {
  return (await call(monitoringRoutes.metrics)).data;
}

export async function getRecordingStats(): Promise<RecordingStats> {
  return (await call(monitoringRoutes.recordings)).data;
}

export const systemHealthQueryOptions = () =>
  queryOptions({ queryKey: monitoringQueryKeys.system, queryFn: getSystemHealth, refetchInterval: MONITORING_POLL_MS });

export const systemMetricsQueryOptions = () =>
  queryOptions({
    queryKey: monitoringQueryKeys.metrics,
    queryFn: getSystemMetrics,
    refetchInterval: MONITORING_POLL_MS,
  });

export const recordingStatsQueryOptions = () =>
  queryOptions({
    queryKey: monitoringQueryKeys.recordings,
    queryFn: getRecordingStats,
    refetchInterval: MONITORING_POLL_MS,
  });

export function useSystemHealth() {
  return useQuery(systemHealthQueryOptions());
}

export function useSystemMetrics() {
  return useQuery(systemMetricsQueryOptions());
}

export function useRecordingStats() {
  return useQuery(recordingStatsQueryOptions());
}
