/** What other modules and the app use of monitoring; the rest stays inside the module. */
export { diskSpaceCheck } from './health';
export { registerMonitoringRoutes, registerRequestMetrics, unmatchedRequestRecorder } from './routes';
export { MonitoringService } from './service';
