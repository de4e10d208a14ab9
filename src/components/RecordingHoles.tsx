import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useState } from 'react';
import type { RecordingGap } from '../../contract/instances';
import { GAP_CAUSE_LABELS, holeInstant, holesSummary } from '../lib/gap-causes';
import { TableHeaderRow } from './TableParts';

const HOLE_COLUMNS = ['Start', 'End', 'Cause', 'Content lost'];

/** Which rows of a table have their holes open. */
export function useOpenHoles() {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return { isOpen: (id: string) => open.has(id), toggle };
}

const holesId = (rowId: string) => `holes-${rowId}`;

/** "2 holes · 70 s lost": opens and closes the row's list of holes (a tablet has no hover for a tooltip). */
export function HolesToggle({
  rowId,
  holes,
  open,
  onToggle,
}: {
  rowId: string;
  holes: readonly RecordingGap[];
  open: boolean;
  onToggle: () => void;
}) {
  if (holes.length === 0) return null;
  const lost = holes.some((hole) => hole.content_lost_seconds > 0);
  return (
    <Button
      size="small"
      color={lost ? 'error' : 'inherit'}
      onClick={onToggle}
      aria-expanded={open}
      aria-controls={open ? holesId(rowId) : undefined}
      endIcon={open ? <ExpandLessIcon /> : <ExpandMoreIcon />}
      sx={{
        px: 0.5,
        py: 0,
        minWidth: 0,
        whiteSpace: 'nowrap',
        textTransform: 'none',
        fontSize: '0.75rem',
        '& .MuiButton-endIcon': { ml: 0.25 },
      }}
    >
      {holesSummary(holes)}
    </Button>
  );
}

function Instant({ at }: { at: string }) {
  const { local, utc } = holeInstant(at);
  return (
    <>
      <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
        {local}
      </Typography>
      {/* An operator whose clock is UTC needs it once. */}
      {!local.endsWith(' UTC') && (
        <Typography variant="caption" color="textSecondary" sx={{ whiteSpace: 'nowrap' }}>
          {utc}
        </Typography>
      )}
    </>
  );
}

/** A full-width row under a table row: each hole with its start and end (the operator's clock and UTC), cause, detail and content lost. */
export function HolesRow({
  rowId,
  colSpan,
  holes,
  of,
}: {
  rowId: string;
  colSpan: number;
  holes: readonly RecordingGap[];
  of: string;
}) {
  return (
    <TableRow id={holesId(rowId)}>
      <TableCell colSpan={colSpan} sx={{ bgcolor: 'action.hover', py: 1 }}>
        <Table size="small" aria-label={`Holes of ${of}`} sx={{ width: 'auto' }}>
          <TableHeaderRow columns={HOLE_COLUMNS} />
          <TableBody>
            {holes.map((hole) => (
              <TableRow key={hole.start}>
                <TableCell>
                  <Instant at={hole.start} />
                </TableCell>
                <TableCell>
                  <Instant at={hole.end} />
                </TableCell>
                <TableCell>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {GAP_CAUSE_LABELS[hole.cause]}
                  </Typography>
                  <Typography variant="caption" color="textSecondary" sx={{ overflowWrap: 'anywhere' }}>
                    {hole.reason}
                  </Typography>
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {hole.content_lost_seconds > 0 ? `${Math.round(hole.content_lost_seconds)} s` : 'None'}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableCell>
    </TableRow>
  );
}
