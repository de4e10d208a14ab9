import { z } from 'zod';
import { envelope, instantSchema } from './common';

/*
 * GET /api/instances/cost: what the EC2 fleet cost, as the server estimates it from each machine's
 * type and runtime and an hourly price per type (on-demand list prices, or the operator's).
 */

const figure = z.number().nonnegative();

/** The machines of one Friday or one month. */
export const costPeriodSchema = z.object({
  /** `2026-11-27` (a Friday: recordings filed under it) or `2026-11` (a month: machines launched in it, UTC). */
  period: z.string(),
  recordings: z.number().int().nonnegative(),
  /** Machines started: a relaunched recording counts each of its machines; a shared machine counts once. */
  instances: z.number().int().nonnegative(),
  instance_hours: figure,
  /** Instance-hours times each type's hourly price, plus the root volumes' storage for those hours. */
  estimate_usd: figure,
  /** Types without a price: their hours are in instance_hours but not in the estimate. */
  unpriced_types: z.array(z.string()),
});
export type CostPeriod = z.infer<typeof costPeriodSchema>;

export const instanceCostSchema = z.object({
  /** The coming Friday (today when it is Friday), then the one before it. */
  fridays: z.array(costPeriodSchema),
  /** The current month (UTC), so far. */
  month: costPeriodSchema,
  /** USD per hour for each instance type priced, and where those prices come from. */
  hourly_prices: z.record(z.string(), figure),
  price_source: z.string(),
  /** The root volume size priced per machine (GB), at the gp3 price per GB-month. */
  volume_gb: figure,
  generated_at: instantSchema,
});
export type InstanceCost = z.infer<typeof instanceCostSchema>;
export const instanceCostResponseSchema = envelope(instanceCostSchema);
export type InstanceCostResponse = z.infer<typeof instanceCostResponseSchema>;
