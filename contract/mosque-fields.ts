/*
 * The mosque list's closed vocabularies, without zod: the console's first read of /config builds its
 * query from the address with these before the contract's schemas have loaded (src/features/mosques/preload.ts).
 */

export const BROADCAST_STATUSES = ['inactive', 'playing', 'ended'] as const;

export const MOSQUE_SORT_FIELDS = [
  'name',
  'mosque_id',
  'city',
  'country',
  'timezone',
  'active',
  'broadcast_status',
  'created_at',
  'updated_at',
] as const;
export type MosqueSortField = (typeof MOSQUE_SORT_FIELDS)[number];
