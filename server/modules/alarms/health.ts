import { ALARM_KINDS } from '../../../contract/alarms';
import type { MonitoringService } from '../monitoring';
import type { AlarmsService } from './service';

/**
 * Alarms in system health and /metrics: the `alarms` component is unhealthy (overall `degraded`)
 * while a critical alarm is open, and every critical change re-checks health at once so the live
 * feed tells consoles without waiting for the next poll.
 */
export function registerAlarmHealth(monitoring: MonitoringService, alarms: AlarmsService): void {
  monitoring.registerHealthCheck('alarms', async () => {
    let open;
    try {
      open = await alarms.list('open', 500);
    } catch {
      // The database check already says the database is down; not knowing the alarms is not a second failure.
      return { status: 'healthy', detail: 'Open alarms unknown: the database did not answer' };
    }
    const critical = open.filter((alarm) => alarm.severity === 'critical');
    if (critical.length === 0) return { status: 'healthy', detail: 'No critical alarm is open' };
    const newest = critical[0];
    const count = critical.length === 1 ? 'A critical alarm is open' : `${critical.length} critical alarms are open`;
    return {
      status: 'unhealthy',
      detail: `${count}: ${newest.mosque_name ? `${newest.mosque_name}: ` : ''}${newest.message}`.slice(0, 200),
    };
  });
  alarms.onChange((alarm, change) => {
    if (alarm.severity === 'critical' && change !== 'acknowledged') void monitoring.refresh().catch(() => undefined);
  });
  monitoring.registerGauge({
    name: 'capture_alarms_open',
    help: 'Open alarms by kind and severity',
    labelNames: ['kind', 'severity'],
    fleet: true,
    async collect() {
      // Every kind appears (0 when none is open), so an alert rule can watch a series that exists.
      const counts = new Map(Object.entries(ALARM_KINDS).map(([kind, severity]) => [`${kind}|${severity}`, 0]));
      for (const { kind, severity, count } of await alarms.openCounts()) counts.set(`${kind}|${severity}`, count);
      return [...counts].map(([key, value]) => {
        const [kind, severity] = key.split('|');
        return { labels: { kind, severity }, value };
      });
    },
  });
}
