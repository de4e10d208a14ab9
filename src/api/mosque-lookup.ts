import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Mosque } from '../../contract/mosques';
import { getMosquesPage, mosquesQueryKey } from './config';

/*
 * Mosques read a few at a time, never the fleet: a name shown from its id (asked for together with the
 * other names on screen) and a picker's choices (a search on the server).
 */

/** Ids asked for within this long go in one request: the rows of a table render together. */
const GATHER_MS = 10;
/** The most ids one request names (the list endpoint takes up to 1000). */
const IDS_PER_REQUEST = 100;
/** A picker offers this many matches of what was typed. */
export const MOSQUE_CHOICES = 20;

interface Waiting {
  resolve: (mosque: Mosque | null) => void;
  reject: (error: unknown) => void;
}

let waiting = new Map<string, Waiting[]>();

async function readGathered(batch: Map<string, Waiting[]>): Promise<void> {
  const ids = [...batch.keys()];
  for (let start = 0; start < ids.length; start += IDS_PER_REQUEST) {
    const chunk = ids.slice(start, start + IDS_PER_REQUEST);
    try {
      const { mosques } = await getMosquesPage({ mosque_ids: chunk.join(','), limit: chunk.length });
      const found = new Map(mosques.map((mosque) => [mosque.mosque_id, mosque]));
      for (const id of chunk) for (const waiter of batch.get(id) ?? []) waiter.resolve(found.get(id) ?? null);
    } catch (error) {
      for (const id of chunk) for (const waiter of batch.get(id) ?? []) waiter.reject(error);
    }
  }
}

/** One mosque by id (null: no mosque has it), read together with the others asked for at the same moment. */
export function getMosqueById(id: string): Promise<Mosque | null> {
  return new Promise((resolve, reject) => {
    if (waiting.size === 0)
      setTimeout(() => {
        const batch = waiting;
        waiting = new Map();
        void readGathered(batch);
      }, GATHER_MS);
    waiting.set(id, [...(waiting.get(id) ?? []), { resolve, reject }]);
  });
}

/** A mosque by id; under the mosque key, so a change to any mosque reads it again. */
export function useMosqueById(id: string | null | undefined) {
  return useQuery({
    queryKey: [...mosquesQueryKey, 'by-id', id],
    queryFn: () => getMosqueById(id ?? ''),
    enabled: Boolean(id),
  });
}

/** The first MOSQUE_CHOICES mosques matching `text` by name, id or place, in natural name order. */
export function useMosqueSearch(text: string, { activeOnly = false, enabled = true } = {}) {
  const q = text.trim() || undefined;
  return useQuery({
    queryKey: [...mosquesQueryKey, 'search', q, activeOnly],
    queryFn: () =>
      getMosquesPage({ q, sort: 'name', limit: MOSQUE_CHOICES, ...(activeOnly ? { active: 'true' as const } : {}) }),
    enabled,
    placeholderData: keepPreviousData,
  });
}
