import type { Mosque } from '../../contract/mosques';
import type { MosquesListQuery } from '../../contract/mosque-list';
import { plainGet } from './plain-read';
import { preload } from './preloaded';

/** mosqueRoutes.list of contract/routes/mosques.ts, spelled out: the route table's schemas stay out of the first read (tests hold them equal). */
export const MOSQUES_LIST_PATH = '/api/config/mosques';

export interface MosquesPage {
  mosques: Mosque[];
  total: number;
}

export const mosquesPageReadKey = (query: MosquesListQuery) => `mosques-page:${JSON.stringify(query)}`;

/**
 * Asks for a page of the mosque table before the page is rendered (see preloaded.ts); useMosquesPage
 * takes it. By fetch: this module and its imports are all /config's first read waits for, not the HTTP
 * client and the contract's schemas that the page's own chunks bring.
 */
export function preloadMosquesPage(query: MosquesListQuery): void {
  preload(mosquesPageReadKey(query), async (): Promise<MosquesPage> => {
    const { data } = await plainGet<{ data: { mosques: Mosque[]; total?: number } }>(MOSQUES_LIST_PATH, query);
    return { mosques: data.mosques, total: data.total ?? data.mosques.length };
  });
}
