/** One published figure: what was measured, against what baseline in the same run, and their ratio. */
export interface BenchResult {
  name: string;
  figure: number;
  unit: string;
  baseline?: number;
  baselineLabel?: string;
  /** figure / baseline. */
  ratio?: number;
  /** The DESIGN.md budget this figure is held to, in words. */
  budget?: string;
  /** Whether the figure is within its budget, when it has one. */
  withinBudget?: boolean;
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
