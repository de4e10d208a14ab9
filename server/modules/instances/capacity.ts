import type { FastifyBaseLogger } from 'fastify';
import { InstanceCapError, type CaptureProvider } from '../../capture/provider';
import type { Clock } from '../../lib/clock';
import type { AlarmsService } from '../alarms';
import type { InstancesRepository } from './repository';

/*
 * The fleet's capacity, told to the operator before it costs a Friday: a launch refused because the
 * fleet is at AWS_MAX_INSTANCES raises a fleet_capacity alarm (resolved by the next launch that goes
 * through), and a pre-flight, a while before each wave, compares the machines the wave needs with
 * what the account (EC2's max-instances) and AWS_MAX_INSTANCES allow, and alarms while it would not fit.
 */

/** Jobs launching within this long are the coming wave. */
export const WAVE_AHEAD_MS = 60 * 60_000;
/** The pre-flight asks EC2 at most this often (its Describe calls are rate-limited). */
export const PREFLIGHT_EVERY_MS = 5 * 60_000;
const CAP_KEY = 'fleet_capacity:max_instances';
const WAVE_KEY = 'fleet_capacity:wave';

export interface CapacityDeps {
  driver: CaptureProvider;
  repository: InstancesRepository;
  clock: Clock;
  log: FastifyBaseLogger;
  alarms?: Pick<AlarmsService, 'raise' | 'resolve'>;
  /** AWS_MAX_INSTANCES (undefined: no cap) and RECORDINGS_PER_INSTANCE. */
  maxInstances?: number;
  recordingsPerInstance: number;
}

export class FleetCapacity {
  private capAlarmOpen = false;
  private lastPreflight = Number.NEGATIVE_INFINITY;
  private lastFailure: string | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly deps: CapacityDeps) {}

  /** After a launch attempt: alarms a refusal at the cap, resolves that alarm once a launch goes through. */
  async launchEnded(error: unknown): Promise<void> {
    if (error instanceof InstanceCapError) {
      this.capAlarmOpen = true;
      await this.deps.alarms?.raise({ kind: 'fleet_capacity', key: CAP_KEY, message: error.message });
    } else if (!error && this.capAlarmOpen) {
      this.capAlarmOpen = false;
      await this.deps.alarms?.resolve(CAP_KEY);
    }
  }

  /**
   * The wave's pre-flight, at most every PREFLIGHT_EVERY_MS (a caller during a run shares it); a
   * failure to ask is logged once, never thrown: the provider's health check tells the operator.
   */
  preflight(): Promise<void> {
    if (this.running) return this.running;
    const now = this.deps.clock.now().getTime();
    if (!this.deps.driver.accountLimits || now - this.lastPreflight < PREFLIGHT_EVERY_MS) return Promise.resolve();
    this.lastPreflight = now;
    this.running = this.check(now).finally(() => (this.running = undefined));
    return this.running;
  }

  private async check(now: number): Promise<void> {
    try {
      const problem = await this.waveProblem(now);
      this.lastFailure = undefined;
      if (problem) await this.deps.alarms?.raise({ kind: 'fleet_capacity', key: WAVE_KEY, message: problem });
      else await this.deps.alarms?.resolve(WAVE_KEY);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== this.lastFailure) this.deps.log.warn({ err: error }, 'fleet capacity pre-flight failed');
      this.lastFailure = message;
    }
  }

  /** What stops the coming wave from fitting, in one sentence; undefined when it fits. */
  private async waveProblem(now: number): Promise<string | undefined> {
    const jobs = await this.deps.repository.jobsDueBefore(new Date(now + WAVE_AHEAD_MS).toISOString());
    if (jobs === 0) return undefined;
    const limits = await this.deps.driver.accountLimits!();
    const machines = Math.ceil(jobs / this.deps.recordingsPerInstance);
    const needed = limits.running + machines;
    const bounds = [
      ...(limits.maxInstances !== null
        ? [{ limit: limits.maxInstances, what: `the account allows ${limits.maxInstances} (${limits.source})` }]
        : []),
      ...(this.deps.maxInstances
        ? [{ limit: this.deps.maxInstances, what: `AWS_MAX_INSTANCES is ${this.deps.maxInstances}` }]
        : []),
    ].filter((bound) => needed > bound.limit);
    if (bounds.length === 0) return undefined;
    const tightest = bounds.reduce((a, b) => (b.limit < a.limit ? b : a));
    const vcpus = limits.vcpusPerMachine ? ` (${needed * limits.vcpusPerMachine} vCPUs of ${limits.instanceType})` : '';
    return `The recordings launching within ${WAVE_AHEAD_MS / 60_000} minutes need ${machines} machines, ${needed} with the ${limits.running} running${vcpus}, but ${tightest.what}: ${needed - tightest.limit} would not launch. Raise the limit (an EC2 quota increase, or AWS_MAX_INSTANCES) or share machines (RECORDINGS_PER_INSTANCE).`;
  }
}
