import TablePagination from '@mui/material/TablePagination';
import { useEffect } from 'react';
import type { ListView } from '../lib/list-view';
import { PAGE_SIZES } from '../lib/paging';
import type { ParamUpdate } from '../lib/url-params';

interface ListPaginationProps {
  /** Every row matching the view's search and filters. */
  total: number;
  view: ListView<string>;
  onView: (update: ParamUpdate) => void;
}

/** The pages of a list whose view is in the address: a page change or a new page size is a change of the address. */
export function ListPagination({ total, view, onView }: ListPaginationProps) {
  if (total === 0) return null;
  return (
    <TablePagination
      component="div"
      count={total}
      // A page past the end (rows deleted meanwhile) shows as the last one until the address catches up.
      page={Math.min(view.page, Math.max(0, Math.ceil(total / view.size) - 1))}
      rowsPerPage={view.size}
      rowsPerPageOptions={[...PAGE_SIZES]}
      onPageChange={(_event, page) => onView({ page: page === 0 ? null : String(page) })}
      onRowsPerPageChange={(event) => onView({ size: event.target.value, page: null })}
    />
  );
}

/** Rows deleted elsewhere can leave the address on a page past the end: it moves to the last page there is. */
export function usePageInRange(
  total: number | undefined,
  view: ListView<string>,
  onView: (update: ParamUpdate) => void,
): void {
  const lastPage = total === undefined ? 0 : Math.max(0, Math.ceil(total / view.size) - 1);
  useEffect(() => {
    if (total !== undefined && view.page > lastPage) onView({ page: lastPage === 0 ? null : String(lastPage) });
  }, [total, lastPage, view.page, onView]);
}
