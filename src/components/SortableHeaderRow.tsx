import type { ReactNode } from 'react';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import { STICKY_ACTIONS, WIDE_SCREEN_CELL } from './TableParts';

export interface HeaderColumn<K extends string> {
  label: string;
  /** The server's sort key for this column; absent: the column cannot be sorted. */
  sortKey?: K;
  /** Hidden below md (its body cells use WIDE_SCREEN_CELL): on a tablet it gives its room to the actions. */
  wideScreenOnly?: boolean;
}

interface SortableHeaderRowProps<K extends string> {
  columns: readonly HeaderColumn<K>[];
  sort: K | null;
  order: 'asc' | 'desc';
  onSort: (key: K) => void;
  /** A cell before the columns (a select-all checkbox). */
  leading?: ReactNode;
}

/** A header row whose sortable columns toggle their order on click; "Actions" is right-aligned as in every table. */
export function SortableHeaderRow<K extends string>({
  columns,
  sort,
  order,
  onSort,
  leading,
}: SortableHeaderRowProps<K>) {
  return (
    <TableHead>
      <TableRow>
        {leading}
        {columns.map(({ label, sortKey, wideScreenOnly }) => {
          const active = sortKey !== undefined && sort === sortKey;
          return (
            <TableCell
              key={label}
              align={label === 'Actions' ? 'right' : 'left'}
              sortDirection={active ? order : false}
              sx={{
                whiteSpace: 'nowrap',
                ...(wideScreenOnly ? WIDE_SCREEN_CELL : {}),
                ...(label === 'Actions' ? STICKY_ACTIONS : {}),
              }}
            >
              {sortKey === undefined ? (
                label
              ) : (
                <TableSortLabel active={active} direction={active ? order : 'asc'} onClick={() => onSort(sortKey)}>
                  {label}
                </TableSortLabel>
              )}
            </TableCell>
          );
        })}
      </TableRow>
    </TableHead>
  );
}
