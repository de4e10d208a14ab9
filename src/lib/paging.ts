import { useState } from 'react';

/** docs/reference.md section 9: page size options, default 10. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = PAGE_SIZES[0];

/** A list's page and page size; the page stays in range when the list shrinks (a cancel, a refresh). */
export function usePaging(total: number) {
  const [requestedPage, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPageState] = useState<number>(DEFAULT_PAGE_SIZE);
  const lastPage = Math.max(0, Math.ceil(total / rowsPerPage) - 1);
  const page = Math.min(requestedPage, lastPage);
  const setRowsPerPage = (size: number) => {
    setRowsPerPageState(size);
    setPage(0);
  };
  const slice = <T>(list: readonly T[]): T[] => list.slice(page * rowsPerPage, page * rowsPerPage + rowsPerPage);
  return { page, rowsPerPage, setPage, setRowsPerPage, slice };
}
