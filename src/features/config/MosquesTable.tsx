import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { Mosque, PrayerTimeRecord } from '../../../contract/config';
import { languageName } from './languages';
import { PrayerTimeChip } from './PrayerTimeChip';
import { TOOLTIP_DELAYS } from '../../lib/tooltip-delays';
import { TableHeaderRow, TableMessageRow } from '../../components/TableParts';
import { PAGE_SIZES, usePaging } from '../../lib/paging';

interface MosquesTableProps {
  mosques: Mosque[];
  loading: boolean;
  located: ReadonlySet<string>;
  prayerTimes: ReadonlyMap<string, PrayerTimeRecord>;
  onEdit: (mosque: Mosque) => void;
  onDelete: (mosque: Mosque) => void;
}

const COLUMNS = ['Status', 'Mosque ID', 'Name', 'City', 'Languages', 'Coordinates', 'Prayer Times', 'Actions'];

/**
 * The expandable Mosque Management table (SPEC.md section 2, Config Generator), one page at a time:
 * a fleet of 10,000 mosques must not become 10,000 rendered rows.
 */
export function MosquesTable({ mosques, loading, located, prayerTimes, onEdit, onDelete }: MosquesTableProps) {
  const paging = usePaging(mosques.length);
  return (
    <Accordion defaultExpanded disableGutters>
      <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls="mosque-management-content" id="mosque-management-header">
        <Typography variant="h6" component="h2">
          Mosque Management
        </Typography>
        <Chip size="small" label={mosques.length} sx={{ ml: 1.5, alignSelf: 'center' }} />
      </AccordionSummary>
      <AccordionDetails sx={{ p: 0 }}>
        {loading && <LinearProgress aria-label="Loading mosques" />}
        <TableContainer>
          <Table aria-label="Mosques" size="small" sx={{ minWidth: 720, '& td, & th': { px: { xs: 1, lg: 2 } } }}>
            <TableHeaderRow columns={COLUMNS} />
            <TableBody>
              {loading && mosques.length === 0 && <TableMessageRow colSpan={COLUMNS.length}>Loading mosques...</TableMessageRow>}
              {!loading && mosques.length === 0 && <TableMessageRow colSpan={COLUMNS.length}>No mosques configured yet. Add a mosque to get started.</TableMessageRow>}
              {paging.slice(mosques).map((mosque) => (
                <TableRow key={mosque.mosque_id} hover>
                  <TableCell>
                    <Chip size="small" label={mosque.active ? 'Enabled' : 'Disabled'} color={mosque.active ? 'success' : 'default'} />
                  </TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{mosque.mosque_id}</TableCell>
                  <TableCell>
                    <Typography variant="body2" sx={{ fontWeight: 500 }}>
                      {mosque.name}
                    </Typography>
                    {mosque.name_ar && (
                      <Typography variant="body2" color="textSecondary" dir="rtl" lang="ar" sx={{ textAlign: 'left' }}>
                        {mosque.name_ar}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    <Typography variant="body2">{mosque.city ?? '—'}</Typography>
                    {mosque.district && (
                      <Typography variant="body2" color="textSecondary">
                        {mosque.district}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                      {mosque.languages.map((code) => (
                        <Chip key={code} size="small" variant="outlined" label={languageName(code)} />
                      ))}
                    </Box>
                  </TableCell>
                  <TableCell>
                    {located.has(mosque.mosque_id) ? (
                      <Chip size="small" label="Available" color="success" variant="outlined" />
                    ) : (
                      <Chip size="small" label="Missing" color="error" variant="outlined" />
                    )}
                  </TableCell>
                  <TableCell>
                    <PrayerTimeChip record={prayerTimes.get(mosque.mosque_id)} />
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title="Edit Mosque" {...TOOLTIP_DELAYS}>
                      <IconButton aria-label={`Edit mosque ${mosque.mosque_id}`} onClick={() => onEdit(mosque)} size="small">
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title="Delete Mosque" {...TOOLTIP_DELAYS}>
                      <IconButton aria-label={`Delete mosque ${mosque.mosque_id}`} onClick={() => onDelete(mosque)} size="small" color="error">
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        {mosques.length > 0 && (
          <TablePagination
            component="div"
            count={mosques.length}
            page={paging.page}
            rowsPerPage={paging.rowsPerPage}
            rowsPerPageOptions={[...PAGE_SIZES]}
            onPageChange={(_event, page) => paging.setPage(page)}
            onRowsPerPageChange={(event) => paging.setRowsPerPage(Number(event.target.value))}
          />
        )}
      </AccordionDetails>
    </Accordion>
  );
}
