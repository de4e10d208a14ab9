import type { Mosque } from '../../../contract/mosques';

/** A mosque as the activity log names it. */
export const mosqueTarget = (mosque: Pick<Mosque, 'mosque_id' | 'name'>) => ({
  type: 'mosque',
  id: mosque.mosque_id,
  label: mosque.name,
});

/** Names of the fields whose value changed, for the activity log (names only, no values). */
export function changedFields(before: Mosque, after: Mosque): string[] {
  return (Object.keys(after) as (keyof Mosque)[]).filter(
    (key) => key !== 'updated_at' && JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
}
