import { percentile as nearestRank } from '../server/lib/percentile';

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

/** The server's nearest-rank percentile; NaN (not null) for no values, so a figure stays a number. */
export const percentile = (values: number[], p: number): number => nearestRank(values, p) ?? Number.NaN;

export const median = (values: number[]) => percentile(values, 50);

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export function withRatio(result: Omit<BenchResult, 'ratio'>): BenchResult {
  return result.baseline ? { ...result, ratio: round(result.figure / result.baseline, 3) } : result;
}

/** A command-line option that must be a whole number of at least 1. */
export function positiveArg(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new Error(`--${name} must be a whole number of at least 1 (got ${value})`);
  return number;
}
