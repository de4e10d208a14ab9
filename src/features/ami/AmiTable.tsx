import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import StarIcon from '@mui/icons-material/Star';
import type { ReactNode } from 'react';
import type { Ami } from '../../../contract/ami';
import { formatDateTime } from '../../lib/dates';
import { amiStateColor, formatSizeGb } from './ami-form';
import { ActionsCell, STICKY_ACTIONS } from '../../components/TableParts';

interface AmiTableProps {
  amis: Ami[];
  loading: boolean;
  empty: ReactNode;
  onDelete: (ami: Ami) => void;
}

const COLUMNS = ['Status', 'Name', 'AMI ID', 'Version', 'Size (GB)', 'Created', 'Latest', 'Actions'];

/** The images (docs/reference.md section 2, AMI Manager): delete is disabled while an image is pending. */
export function AmiTable({ amis, loading, empty, onDelete }: AmiTableProps) {
  return (
    <TableContainer component={Paper}>
      <Table aria-label="AMIs" sx={{ '& .MuiTableCell-root': { px: { xs: 1, lg: 2 } } }}>
        <TableHead>
          <TableRow>
            {COLUMNS.map((column) => (
              <TableCell
                key={column}
                align={column === 'Actions' ? 'right' : 'left'}
                sx={column === 'Actions' ? STICKY_ACTIONS : undefined}
              >
                {column}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {loading && amis.length === 0 && (
            <TableRow>
              <TableCell colSpan={COLUMNS.length} align="center" sx={{ py: 4 }}>
                <CircularProgress size={28} aria-label="Loading AMIs" />
              </TableCell>
            </TableRow>
          )}
          {!loading && amis.length === 0 && (
            <TableRow>
              <TableCell colSpan={COLUMNS.length}>{empty}</TableCell>
            </TableRow>
          )}
          {amis.map((ami) => {
            const pending = ami.state === 'pending';
            return (
              <TableRow key={ami.ami_id} hover>
                <TableCell>
                  <Chip
                    size="small"
                    label={ami.state}
                    color={amiStateColor(ami.state)}
                    sx={{ textTransform: 'capitalize' }}
                  />
                </TableCell>
                <TableCell sx={{ minWidth: 160, maxWidth: 320 }}>
                  <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{ami.name}</Typography>
                  {ami.description && (
                    <Typography variant="body2" color="textSecondary">
                      {ami.description}
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={{ fontFamily: 'monospace', minWidth: 120, overflowWrap: 'anywhere' }}>
                  {ami.ami_id}
                </TableCell>
                <TableCell>{ami.version}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatSizeGb(ami.size_gb)}</TableCell>
                <TableCell sx={{ minWidth: 110 }}>{formatDateTime(ami.created_at)}</TableCell>
                <TableCell>
                  {ami.is_latest ? <Chip size="small" color="primary" icon={<StarIcon />} label="Latest" /> : null}
                </TableCell>
                <ActionsCell>
                  <Tooltip title={pending ? 'An AMI cannot be deleted while it is pending' : 'Delete AMI'}>
                    <span>
                      <IconButton
                        aria-label={`Delete ${ami.ami_id}`}
                        color="error"
                        onClick={() => onDelete(ami)}
                        disabled={pending}
                        size="small"
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                </ActionsCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
