import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { InstanceSortField } from '../../../contract/instance-list';
import type { Instance } from '../../../contract/instances';
import { SortableHeaderRow, type HeaderColumn } from '../../components/SortableHeaderRow';
import { StateChip } from '../../components/StateChip';
import { formatRuntime } from '../../lib/runtime';
import { isActive } from './fleet';
import { InstanceRowMenu, type InstanceActions } from './InstanceRowMenu';
import { MosqueName } from '../../widgets/MosqueName';
import { ActionsCell } from '../../components/TableParts';

interface InstancesTableProps extends InstanceActions {
  instances: Instance[];
  loading: boolean;
  sort: InstanceSortField | null;
  order: 'asc' | 'desc';
  onSort: (field: InstanceSortField) => void;
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: Set<string>) => void;
  /** Shown instead of rows when there is no instance. */
  empty: ReactNode;
}

const COLUMNS: readonly HeaderColumn<InstanceSortField>[] = [
  { label: 'Instance', sortKey: 'name' },
  { label: 'State', sortKey: 'state' },
  { label: 'Type', sortKey: 'instance_type' },
  { label: 'Runtime', sortKey: 'runtime_hours' },
  { label: 'Mosque', sortKey: 'mosque_id' },
  { label: 'Actions' },
];

/** The fleet: checkbox, name and id, state chip, type, runtime, mosque id or N/A, row actions (docs/reference.md section 2). */
export function InstancesTable({
  instances,
  loading,
  sort,
  order,
  onSort,
  selected,
  onSelectedChange,
  empty,
  ...actions
}: InstancesTableProps) {
  const selectable = instances.filter(isActive);
  const chosen = selectable.filter((instance) => selected.has(instance.id)).length;

  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelectedChange(next);
  };
  // The page's active instances: on or off together (a selection on other pages stays as it is).
  const toggleAll = () => {
    const next = new Set(selected);
    for (const instance of selectable) {
      if (chosen === selectable.length) next.delete(instance.id);
      else next.add(instance.id);
    }
    onSelectedChange(next);
  };

  return (
    <TableContainer component={Paper}>
      <Table aria-label="Instances">
        <SortableHeaderRow
          columns={COLUMNS}
          sort={sort}
          order={order}
          onSort={onSort}
          leading={
            <TableCell padding="checkbox">
              <Checkbox
                indeterminate={chosen > 0 && chosen < selectable.length}
                checked={selectable.length > 0 && chosen === selectable.length}
                disabled={selectable.length === 0}
                onChange={toggleAll}
                slotProps={{ input: { 'aria-label': 'Select all running and pending instances' } }}
              />
            </TableCell>
          }
        />
        <TableBody>
          {loading && instances.length === 0 && (
            <TableRow>
              <TableCell colSpan={COLUMNS.length + 1} align="center" sx={{ py: 4 }}>
                <CircularProgress size={28} aria-label="Loading instances" />
              </TableCell>
            </TableRow>
          )}
          {!loading && instances.length === 0 && (
            <TableRow>
              <TableCell colSpan={COLUMNS.length + 1}>{empty}</TableCell>
            </TableRow>
          )}
          {instances.map((instance) => {
            const active = isActive(instance);
            return (
              <TableRow key={instance.id} hover selected={selected.has(instance.id)}>
                <TableCell padding="checkbox">
                  <Checkbox
                    checked={active && selected.has(instance.id)}
                    disabled={!active}
                    onChange={() => toggle(instance.id)}
                    slotProps={{ input: { 'aria-label': `Select ${instance.name}` } }}
                  />
                </TableCell>
                <TableCell>
                  <Box sx={{ minWidth: 0 }}>
                    <Typography sx={{ fontWeight: 500, wordBreak: 'break-all' }}>{instance.name}</Typography>
                    <Typography
                      variant="body2"
                      color="textSecondary"
                      sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
                    >
                      {instance.instance_id}
                    </Typography>
                  </Box>
                </TableCell>
                <TableCell>
                  <StateChip state={instance.state} />
                </TableCell>
                <TableCell>{instance.instance_type}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatRuntime(instance.runtime_hours)}</TableCell>
                <TableCell>
                  <MosqueName mosqueId={instance.mosque_id} />
                </TableCell>
                <ActionsCell>
                  <InstanceRowMenu instance={instance} {...actions} />
                </ActionsCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
