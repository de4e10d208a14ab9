/**
 * How many times slower than a quiet machine this run may be (TEST_TIME_SCALE, 1 unless set). Every
 * time limit of the suites (per-test and hook timeouts, the ceilings of waits for a condition) goes
 * through `scaled`, so a busy host raises them all from one place instead of failing on the clock.
 */
export const TIME_SCALE = timeScaleOf(environment().TEST_TIME_SCALE);

/** Node's environment; read through globalThis because the component tests are type-checked without Node's types. */
function environment(): Record<string, string | undefined> {
  return (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
}

export function timeScaleOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale < 1)
    throw new Error(`TEST_TIME_SCALE must be a number of at least 1, not "${raw}"`);
  return scale;
}

/** A time limit of `ms` on a quiet machine, as long as this run allows. */
export function scaled(ms: number): number {
  return Math.round(ms * TIME_SCALE);
}
