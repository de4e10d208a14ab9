import type { ReactNode } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import NetworkCheckIcon from '@mui/icons-material/NetworkCheck';
import type { Mosque, PrayerTimeRecord } from '../../../contract/mosques';
import type { MosqueSortField } from '../../../contract/mosque-list';
import { languageName } from './languages';
import { PrayerTimeChip } from './PrayerTimeChip';
import { TOOLTIP_DELAYS } from '../../lib/tooltip-delays';
import { SortableHeaderRow, type HeaderColumn } from '../../components/SortableHeaderRow';
import { ActionsCell, TableMessageRow, SelectPageCell } from '../../components/TableParts';
import { ListPagination } from '../../components/ListPagination';
import { nextSort } from '../../lib/list-view';
import type { ParamUpdate } from '../../lib/url-params';
import { viewFromParams, type MosqueListView } from './mosque-list-view';
import { MosquesToolbar } from './MosquesToolbar';

interface MosquesTableProps {
  /** The page on screen. */
  mosques: Mosque[];
  /** Every mosque matching the view's search and filters. */
  total: number;
  loading: boolean;
  view: MosqueListView;
  onView: (update: ParamUpdate) => void;
  selected: ReadonlySet<string>;
  onSelect: (ids: string[], selected: boolean) => void;
  /** The bulk actions bar, shown above the rows while some are selected. */
  bulkBar: ReactNode;
  located: ReadonlySet<string>;
  /** The page's coming Friday prayers; undefined while they are read (a skeleton, not "Pending"). */
  prayerTimes: ReadonlyMap<string, PrayerTimeRecord> | undefined;
  onEdit: (mosque: Mosque) => void;
  onDelete: (mosque: Mosque) => void;
  onTestStream: (mosque: Mosque) => void;
}

const COLUMNS: readonly HeaderColumn<MosqueSortField>[] = [
  { label: 'Status', sortKey: 'active' },
  { label: 'Mosque ID', sortKey: 'mosque_id' },
  { label: 'Name', sortKey: 'name' },
  { label: 'City', sortKey: 'city' },
  { label: 'Languages' },
  { label: 'Coordinates' },
  { label: 'Prayer Times' },
  { label: 'Actions' },
];
const COLUMN_COUNT = COLUMNS.length + 1;

/**
 * The expandable Mosque Management table (docs/reference.md section 2, Config Generator) at fleet size: the
 * server searches, sorts and pages (10,000 mosques are never all sent or rendered), the view lives
 * in the address, and rows can be selected for an action on all of them.
 */
export function MosquesTable({
  mosques,
  total,
  loading,
  view,
  onView,
  selected,
  onSelect,
  bulkBar,
  located,
  prayerTimes,
  onEdit,
  onDelete,
  onTestStream,
}: MosquesTableProps) {
  const pageIds = mosques.map((mosque) => mosque.mosque_id);
  const selectedOnPage = pageIds.filter((id) => selected.has(id)).length;
  const filtered = view.q.trim() !== '' || view.active !== null || view.broadcast !== null;
  return (
    <Accordion defaultExpanded disableGutters>
      <AccordionSummary
        expandIcon={<ExpandMoreIcon />}
        aria-controls="mosque-management-content"
        id="mosque-management-header"
      >
        <Typography variant="h6" component="h2">
          Mosque Management
        </Typography>
        <Chip size="small" label={total} sx={{ ml: 1.5, alignSelf: 'center' }} />
      </AccordionSummary>
      <AccordionDetails sx={{ p: 0 }}>
        <MosquesToolbar view={view} onView={onView} />
        {bulkBar}
        {loading && <LinearProgress aria-label="Loading mosques" />}
        <TableContainer>
          <Table aria-label="Mosques" size="small" sx={{ minWidth: 760, '& td, & th': { px: { xs: 1, lg: 2 } } }}>
            <SortableHeaderRow
              columns={COLUMNS}
              sort={view.sort}
              order={view.order}
              onSort={(field) => onView((current) => ({ ...nextSort(viewFromParams(current), field), page: null }))}
              leading={
                <SelectPageCell
                  label="Select every mosque on this page"
                  pageIds={pageIds}
                  selectedOnPage={selectedOnPage}
                  onSelect={onSelect}
                />
              }
            />
            <TableBody>
              {loading && mosques.length === 0 && (
                <TableMessageRow colSpan={COLUMN_COUNT}>Loading mosques...</TableMessageRow>
              )}
              {!loading && mosques.length === 0 && (
                <TableMessageRow colSpan={COLUMN_COUNT}>
                  {filtered
                    ? 'No mosques match this search.'
                    : 'No mosques configured yet. Add a mosque to get started.'}
                </TableMessageRow>
              )}
              {mosques.map((mosque) => (
                <TableRow key={mosque.mosque_id} hover selected={selected.has(mosque.mosque_id)}>
                  <TableCell padding="checkbox">
                    <Checkbox
                      size="small"
                      slotProps={{ input: { 'aria-label': `Select mosque ${mosque.mosque_id}` } }}
                      checked={selected.has(mosque.mosque_id)}
                      onChange={(event) => onSelect([mosque.mosque_id], event.target.checked)}
                    />
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      label={mosque.active ? 'Enabled' : 'Disabled'}
                      color={mosque.active ? 'success' : 'default'}
                    />
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
                    {prayerTimes ? (
                      <PrayerTimeChip record={prayerTimes.get(mosque.mosque_id)} />
                    ) : (
                      <Skeleton width={56} aria-label="Prayer time loading" />
                    )}
                  </TableCell>
                  <ActionsCell>
                    <Tooltip
                      title={mosque.ID_token?.trim() ? 'Test stream' : 'No stream identifier (ID_token) to test'}
                      {...TOOLTIP_DELAYS}
                    >
                      {/* A disabled button gets no pointer events: the span keeps its tooltip. */}
                      <span>
                        <IconButton
                          aria-label={`Test stream of mosque ${mosque.mosque_id}`}
                          onClick={() => onTestStream(mosque)}
                          size="small"
                          disabled={!mosque.ID_token?.trim()}
                        >
                          <NetworkCheckIcon fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                    <Tooltip title="Edit Mosque" {...TOOLTIP_DELAYS}>
                      <IconButton
                        aria-label={`Edit mosque ${mosque.mosque_id}`}
                        onClick={() => onEdit(mosque)}
                        size="small"
                      >
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title="Delete Mosque" {...TOOLTIP_DELAYS}>
                      <IconButton
                        aria-label={`Delete mosque ${mosque.mosque_id}`}
                        onClick={() => onDelete(mosque)}
                        size="small"
                        color="error"
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </ActionsCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        <ListPagination total={total} view={view} onView={onView} />
      </AccordionDetails>
    </Accordion>
  );
}
