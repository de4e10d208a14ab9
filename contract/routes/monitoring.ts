import { endpoint } from '../endpoint';
import { recordingStatsResponseSchema, systemHealthResponseSchema, systemMetricsResponseSchema } from '../monitoring';

/** Monitoring (docs/reference.md section 7): any operator. Prometheus' /metrics is no console call and stays outside. */
export const monitoringRoutes = {
  /** A health report that failed with the database would hide the one thing it must tell: the database is down. */
  system: endpoint({
    method: 'GET',
    path: '/api/monitoring/system',
    access: 'session',
    answersDuringDatabaseOutage: true,
    response: systemHealthResponseSchema,
  }),
  metrics: endpoint({
    method: 'GET',
    path: '/api/monitoring/metrics',
    access: 'session',
    response: systemMetricsResponseSchema,
  }),
  recordings: endpoint({
    method: 'GET',
    path: '/api/monitoring/recordings',
    access: 'session',
    response: recordingStatsResponseSchema,
  }),
};
