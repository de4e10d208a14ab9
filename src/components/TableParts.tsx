import type { ReactNode } from 'react';
import Checkbox from '@mui/material/Checkbox';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { Theme } from '@mui/material/styles';

/**
 * The actions column stays on screen when a table is wider than its card (a tablet at 820 px): it sticks to
 * the right edge over the columns scrolling beneath it, with a rule to show it is set apart.
 */
export const STICKY_ACTIONS = {
  position: 'sticky',
  right: 0,
  zIndex: 1,
  bgcolor: 'background.paper',
  boxShadow: (theme: Theme) => `inset 1px 0 0 ${theme.palette.divider}`,
} as const;

/** A row's actions: right-aligned, on one line, and always on screen (STICKY_ACTIONS). */
export function ActionsCell({ children }: { children: ReactNode }) {
  return (
    <TableCell align="right" sx={{ whiteSpace: 'nowrap', ...STICKY_ACTIONS }}>
      {children}
    </TableCell>
  );
}

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
            sx={{
              whiteSpace: 'nowrap',
              ...(wideScreenOnly.includes(column) ? WIDE_SCREEN_CELL : {}),
              ...(column === 'Actions' ? STICKY_ACTIONS : {}),
            }}
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

/**
 * The header cell that selects or clears every row of the page shown: checked when all are selected,
 * indeterminate when some are.
 */
export function SelectPageCell({
  label,
  pageIds,
  selectedOnPage,
  onSelect,
}: {
  label: string;
  pageIds: string[];
  selectedOnPage: number;
  onSelect: (ids: string[], selected: boolean) => void;
}) {
  return (
    <TableCell padding="checkbox">
      <Checkbox
        size="small"
        slotProps={{ input: { 'aria-label': label } }}
        checked={pageIds.length > 0 && selectedOnPage === pageIds.length}
        indeterminate={selectedOnPage > 0 && selectedOnPage < pageIds.length}
        disabled={pageIds.length === 0}
        onChange={(event) => onSelect(pageIds, event.target.checked)}
      />
    </TableCell>
  );
}
