import net from 'node:net';

/** One published figure: what was measured, against what baseline in the same run, and their ratio. */
export interface BenchResult {
  name: string;
  figure: number;
  unit: string;
  baseline?: number;
  baselineLabel?: string;
  /** figure / baseline. */
  ratio?: number;
  /** The budget this figure is held to, in words. */
  budget?: string;
  /** Whether the figure is within its budget, when it has one. */
  withinBudget?: boolean;
  /** The row of the budgets table (BUDGETS in run.ts) this figure answers, when it is one. */
  budgetRow?: string;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export const median = (values: number[]) => percentile(values, 50);

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export function withRatio(result: Omit<BenchResult, 'ratio'>): BenchResult {
  return result.baseline ? { ...result, ratio: round(result.figure / result.baseline, 3) } : result;
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls until `probe` gives a truthy value, or fails naming what it waited for (and the probe's last error). */
export async function waitFor<T>(probe: () => Promise<T | undefined | false | null> | T | undefined | false | null, what: string, timeoutMs = 30_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
