import type { RecorderMemory } from '../../capture/provider';
import type { MonitoringService } from '../monitoring';

/**
 * The resident memory of this machine's recorders on /metrics, measured at each scrape: a hostile
 * stream that made one hold a large answer shows here before the machine runs short. Series of this
 * server (its `server` label), not of the fleet: each server measures the recorders it runs.
 */
export function registerRecorderMemoryGauges(
  monitoring: Pick<MonitoringService, 'registerGauge'>,
  measure: () => RecorderMemory[],
): void {
  monitoring.registerGauge({
    name: 'capture_recorder_resident_bytes',
    help: "Resident memory of each recorder running on this server's machine (its Node process)",
    labelNames: ['instance_id'],
    collect: () =>
      measure().map((recorder) => ({ labels: { instance_id: recorder.instanceId }, value: recorder.residentBytes })),
  });
  monitoring.registerGauge({
    name: 'capture_recorder_resident_max_bytes',
    help: "Largest resident memory of a recorder running on this server's machine (0 when none runs)",
    collect: () => [{ value: Math.max(0, ...measure().map((recorder) => recorder.residentBytes)) }],
  });
}
