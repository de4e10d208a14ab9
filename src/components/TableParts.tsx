import type { ReactNode } from 'react';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';

/** A table's header row; a column named "Actions" is right-aligned, as in every table of the console. */
export function TableHeaderRow({ columns }: { columns: readonly string[] }) {
  return (
    <TableHead>
      <TableRow>
        {columns.map((column) => (
          <TableCell key={column} align={column === 'Actions' ? 'right' : 'left'} sx={{ whiteSpace: 'nowrap' }}>
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
