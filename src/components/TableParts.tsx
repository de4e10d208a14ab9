import type { ReactNode } from 'react';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';

/** A cell of a column shown only from the md breakpoint up: on a tablet it gives its room to the actions. */
export const WIDE_SCREEN_CELL = { display: { xs: 'none', md: 'table-cell' } } as const;

/**
 * A table's header row; a column named "Actions" is right-aligned, as in every table of the console.
 * Columns named in `wideScreenOnly` are hidden below md (their body cells use WIDE_SCREEN_CELL).
 */
export function TableHeaderRow({
  columns,
  wideScreenOnly = [],
}: {
  columns: readonly string[];
  wideScreenOnly?: readonly string[];
}) {
  return (
    <TableHead>
      <TableRow>
        {columns.map((column) => (
          <TableCell
            key={column}
            align={column === 'Actions' ? 'right' : 'left'}
            sx={{ whiteSpace: 'nowrap', ...(wideScreenOnly.includes(column) ? WIDE_SCREEN_CELL : {}) }}
          >
            {column}
          </TableCell>
        ))}
      </TableRow>
    </TableHead>
  );
}

/** One full-width row that says why the table has no rows (loading, empty). */
export function TableMessageRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan} align="center" sx={{ py: 4, color: 'text.secondary' }}>
        {children}
      </TableCell>
    </TableRow>
  );
}
