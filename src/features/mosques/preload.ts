import { preloadMosquesPage } from '../../api/mosques-page';
import { queryOfView, viewFromParams } from './mosque-list-view';

/** The table's page that the address `search` shows, asked for before the page renders (routes.tsx). */
export function preloadFirstPage(search: string): void {
  preloadMosquesPage(queryOfView(viewFromParams(new URLSearchParams(search))));
}
