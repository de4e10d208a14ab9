import { BROADCAST_STATUSES, MOSQUE_SORT_FIELDS, type MosqueSortField } from '../../../contract/mosque-fields';
import type { MosqueMatch, MosquesListQuery } from '../../../contract/mosque-list';
import { listQueryOfView, listViewFromParams, oneOf, type ListView } from '../../lib/list-view';

/** What the mosque table shows, as kept in the address: the list's view and `&active=false&broadcast=playing`. */
export interface MosqueListView extends ListView<MosqueSortField> {
  active: 'true' | 'false' | null;
  broadcast: 'inactive' | 'playing' | 'ended' | null;
}

/** Reads the view from the address; anything unknown or malformed falls back to the default. */
export function viewFromParams(params: URLSearchParams): MosqueListView {
  return {
    ...listViewFromParams(params, MOSQUE_SORT_FIELDS),
    active: oneOf(params.get('active'), ['true', 'false'] as const),
    broadcast: oneOf(params.get('broadcast'), BROADCAST_STATUSES),
  };
}

/** The server query for a view: always a page query, so the answer carries the total. */
export function queryOfView(view: MosqueListView): MosquesListQuery {
  return {
    ...listQueryOfView(view),
    ...(view.active && { active: view.active }),
    ...(view.broadcast && { broadcast_status: view.broadcast }),
  };
}

/** The mosques a view's search and filters match, on every page: what "Select all N matching" acts on. */
export function matchOfView(view: MosqueListView): MosqueMatch {
  return {
    ...(view.q.trim() && { q: view.q.trim() }),
    ...(view.active && { active: view.active === 'true' }),
    ...(view.broadcast && { broadcast_status: view.broadcast }),
  };
}
