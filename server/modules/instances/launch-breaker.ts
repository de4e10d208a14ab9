import type { FastifyBaseLogger } from 'fastify';
import { ProviderError, type ProviderInstance } from '../../capture/provider';
import type { Clock } from '../../lib/clock';
import type { AlarmsService } from '../alarms';

/*
 * The fleet's breaker against a systematic fault (no egress, a broken image, a runtime whose hash does
 * not match): such a fault makes every machine of a wave end without recording, and each relaunch
 * only multiplies the cost. A recording whose machine ended without recording anything is a launch
 * failure; when BREAKER_FAILURES recordings fail so within BREAKER_WINDOW_MS, the breaker opens: no new
 * launch or relaunch starts, and one critical alarm names the likely cause (the last lines of the
 * failed machine's console). It closes by itself after BREAKER_QUIET_MS without a new failure, or when
 * an operator closes it. It is this server's: each server sharing the database keeps its own.
 */

export const BREAKER_FAILURES = 5;
export const BREAKER_WINDOW_MS = 10 * 60_000;
export const BREAKER_QUIET_MS = 10 * 60_000;
const ALARM_KEY = 'launch_breaker';
/** How long a failed machine is remembered as counted: longer than any window it could be held in. */
const MACHINE_MEMORY_MS = 24 * 3_600_000;
/** Console lines quoted in the alarm: enough for an error and its context, short enough to read. */
const CAUSE_LINES = 5;

export interface BreakerDeps {
  clock: Clock;
  log: FastifyBaseLogger;
  /** The console output of a failed machine (the provider's logs). */
  consoleOf: (providerInstanceId: string) => Promise<string[]>;
  alarms?: Pick<AlarmsService, 'raise' | 'resolve'>;
}

export class LaunchBreaker {
  /** The launch failures of the last BREAKER_WINDOW_MS: one per recording. */
  private readonly failures = new Map<string, number>();
  /** The failed machines already counted (a held relaunch shows the same machine pass after pass). */
  private readonly counted = new Map<string, number>();
  private openedAt: number | null = null;
  private lastFailureAt = 0;

  constructor(private readonly deps: BreakerDeps) {}

  /** The machine of `recordingId` ended without recording anything. */
  async failed(recordingId: string, instance: ProviderInstance): Promise<void> {
    const now = this.deps.clock.now().getTime();
    for (const [id, at] of this.failures) if (now - at > BREAKER_WINDOW_MS) this.failures.delete(id);
    for (const [id, at] of this.counted) if (now - at > MACHINE_MEMORY_MS) this.counted.delete(id);
    if (this.counted.has(instance.providerInstanceId)) return;
    this.counted.set(instance.providerInstanceId, now);
    this.lastFailureAt = now;
    if (!this.failures.has(recordingId)) this.failures.set(recordingId, now);
    if (this.openedAt !== null || this.failures.size < BREAKER_FAILURES) return;
    this.openedAt = now;
    const cause = await this.likelyCause(instance);
    this.deps.log.error({ failures: this.failures.size, cause }, 'launch breaker opened: launches are held');
    await this.deps.alarms?.raise({
      kind: 'launch_breaker',
      key: ALARM_KEY,
      message: `Launches are held: the machines of ${this.failures.size} recordings ended without recording anything within ${BREAKER_WINDOW_MS / 60_000} minutes. Likely cause, the last lines of ${instance.name}'s console: ${cause}`,
    });
  }

  /** Whether new launches are held now (closing it first when it has been quiet long enough). */
  async isOpen(): Promise<boolean> {
    if (this.openedAt === null) return false;
    if (this.deps.clock.now().getTime() - this.lastFailureAt < BREAKER_QUIET_MS) return true;
    await this.close('after a quiet period');
    return false;
  }

  /** Throws the 503 a launch gets while the breaker is open. */
  async refuseWhileOpen(): Promise<void> {
    if (await this.isOpen())
      throw new ProviderError(
        'unavailable',
        `Launches are held: recorders kept ending without recording (see the launch_breaker alarm); they resume ${BREAKER_QUIET_MS / 60_000} minutes after the last failure, or when an operator closes the breaker`,
      );
  }

  /** Closes the breaker (an operator's, or the quiet period's): launches start again. */
  async close(how: string): Promise<void> {
    if (this.openedAt === null) return;
    this.openedAt = null;
    this.failures.clear();
    this.deps.log.warn({ how }, 'launch breaker closed: launches resume');
    await this.deps.alarms?.resolve(ALARM_KEY);
  }

  private async likelyCause(instance: ProviderInstance): Promise<string> {
    try {
      const lines = (await this.deps.consoleOf(instance.providerInstanceId)).filter((line) => line.trim());
      if (lines.length > 0) return lines.slice(-CAUSE_LINES).join(' | ').slice(0, 1000);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'reading the console of a failed machine failed');
    }
    return `no console output (${instance.stateReason ?? 'no reason given'})`;
  }
}
