import type { FastifyBaseLogger } from 'fastify';
import { maskUrlSecrets } from '../../../recorder/url-secrets';
import { failureMessage } from '../../capture/http-errors';
import type { LiveClient, LiveHub } from '../live';
import type { RecordingsService } from '../recordings';
import type { FleetEvents, InstancesService } from './service';

/** Log lines pushed to a subscriber (docs/reference.md: 100 lines, live refresh every 5 s). */
export const LIVE_LOG_LINES = 100;
export const LIVE_LOG_PUSH_MS = 5000;

/**
 * The fleet on the live feed. `instance_status_update` and `recordings_update` always carry the whole
 * current list (the same as GET /api/instances/ and the latest 50 recordings), so a console can simply
 * replace what it shows; changes within one tick are sent once.
 */
export class FleetLiveFeed implements FleetEvents {
  private pendingInstances = false;
  private pendingRecordings = false;
  private logTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly hub: LiveHub,
    private readonly recordings: RecordingsService,
    private readonly log: FastifyBaseLogger,
    /** The fleet this feed reports; built after the feed, which it tells of its changes, so reached when called. */
    private readonly fleet: () => InstancesService,
    /** Receives each launch-to-running time (monitoring's average launch time). */
    private readonly onRunning: (seconds: number) => void = () => undefined,
  ) {
    // (Typed by hand: contract/live.ts builds the three instance-id messages with one shared literal union.)
    this.hub.handle('request_logs', (client, message: { instance_id: string }) =>
      this.sendLogs(client, message.instance_id),
    );
    // The socket route has already added the subscription; answer at once rather than in 5 s.
    this.hub.handle('subscribe_logs', (client, message: { instance_id: string }) =>
      this.sendLogs(client, message.instance_id),
    );
  }

  instancesChanged(): void {
    if (this.pendingInstances) return;
    this.pendingInstances = true;
    setImmediate(() => {
      this.pendingInstances = false;
      if (!this.hub.hasAudience) return;
      this.fleet()
        .list()
        .then((data) => this.hub.publish({ type: 'instance_status_update', data }))
        .catch((error: unknown) => this.log.warn({ err: error }, 'instance_status_update failed'));
    });
  }

  recordingsChanged(): void {
    if (this.pendingRecordings) return;
    this.pendingRecordings = true;
    setImmediate(() => {
      this.pendingRecordings = false;
      if (!this.hub.hasAudience) return;
      this.recordings
        .recent()
        .then((data) => this.hub.publish({ type: 'recordings_update', data }))
        .catch((error: unknown) => this.log.warn({ err: error }, 'recordings_update failed'));
    });
  }

  launched(outcome: { instanceId: string; mosqueId: string | null; jobId: string | null; message: string }): void {
    this.hub.publish({
      type: 'launch_complete',
      data: {
        instance_id: outcome.instanceId,
        mosque_id: outcome.mosqueId,
        job_id: outcome.jobId,
        message: outcome.message,
      },
    });
  }

  launchFailed(outcome: { mosqueId: string | null; jobId: string | null; message: string }): void {
    this.hub.publish({
      type: 'launch_error',
      data: {
        instance_id: null,
        mosque_id: outcome.mosqueId,
        job_id: outcome.jobId,
        message: maskUrlSecrets(outcome.message),
      },
    });
  }

  reachedRunning(seconds: number): void {
    this.onRunning(seconds);
  }

  /** Pushes the logs of every live instance somebody subscribed to, every 5 s. */
  startLogPushes(): void {
    this.logTimer = setInterval(() => void this.pushLogs(), LIVE_LOG_PUSH_MS);
    this.logTimer.unref();
  }

  stopLogPushes(): void {
    clearInterval(this.logTimer);
  }

  private async pushLogs(): Promise<void> {
    if (this.hub.connectionCount === 0) return;
    try {
      for (const row of await this.fleet().liveRows()) {
        const keys = [row.id, row.provider_instance_id].filter(
          (k, i, all): k is string => Boolean(k) && all.indexOf(k) === i,
        );
        const subscribed = keys.filter((key) => this.hub.hasLogSubscribers(key));
        if (subscribed.length === 0) continue;
        const { logs } = await this.fleet().logs(row.id, LIVE_LOG_LINES);
        for (const key of subscribed) this.hub.publishLogs(key, logs);
      }
    } catch (error) {
      this.log.warn({ err: error }, 'pushing live logs failed');
    }
  }

  private async sendLogs(client: LiveClient, instanceId: string): Promise<void> {
    try {
      const { logs } = await this.fleet().logs(instanceId, LIVE_LOG_LINES);
      this.hub.send(client, { type: 'instance_logs', instance_id: instanceId, logs });
    } catch (error) {
      this.hub.send(client, { type: 'error', message: `Failed to load logs: ${failureMessage(error)}` });
    }
  }
}
