import type { FastifyBaseLogger } from 'fastify';
import type { Clock, Timer } from '../../lib/clock';
import { HEARTBEAT_MS } from './registry';

/** One kind of takeover work (adopting a scope on this host, continuing a lost host's recordings). */
export interface TakeoverStep {
  name: string;
  pass(): Promise<void>;
}

/**
 * The takeover work, apart from the heartbeat: every HEARTBEAT_MS on a timer of its own, each step in
 * turn, the next pass armed only once this one is over (a slow pass delays the next pass, never a
 * beat). Every step is idempotent and takes nothing from a server before re-checking its lease in the
 * statement that marks it taken (repository.takeOverScope), so two servers passing at once, or a pass
 * repeated, take each thing once.
 */
export class TakeoverTask {
  private readonly timer: Timer;
  private running = false;
  private passing: Promise<void> | undefined;
  private readonly lastErrors = new Map<string, string>();

  constructor(
    private readonly steps: TakeoverStep[],
    clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {
    this.timer = clock.timer();
  }

  start(): void {
    this.running = true;
    this.arm();
  }

  /** One pass now; concurrent callers share the one in flight (tests call it). */
  pass(): Promise<void> {
    this.passing ??= this.passOnce().finally(() => {
      this.passing = undefined;
    });
    return this.passing;
  }

  private async passOnce(): Promise<void> {
    for (const step of this.steps) {
      try {
        await step.pass();
        this.lastErrors.delete(step.name);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // A database outage repeats on every pass: said once, and again when it changes.
        if (message !== this.lastErrors.get(step.name))
          this.log.warn({ err: error, step: step.name }, 'takeover failed');
        this.lastErrors.set(step.name, message);
      }
    }
  }

  private arm(): void {
    if (!this.running) return;
    this.timer.arm(HEARTBEAT_MS, () => void this.pass().finally(() => this.arm()));
  }

  /** Stops passing and waits for the pass in flight. */
  async stop(): Promise<void> {
    this.running = false;
    this.timer.disarm();
    await this.passing;
  }
}
