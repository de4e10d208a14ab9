import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useCallback, useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import {
  FRIDAY_SORT_FIELDS,
  FRIDAY_STATUSES,
  fridayStatusSchema,
  type FridayRow,
  type FridayStatus,
} from '../../../../contract/fridays';
import { SCHEDULER_MESSAGES, schedulerErrorMessage, useFridaysPage, useRestoreJob } from '../../../api/scheduler';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { ListPagination, usePageInRange } from '../../../components/ListPagination';
import { SearchField } from '../../../components/SearchField';
import { listQueryOfView, listViewFromParams, nextSort } from '../../../lib/list-view';
import { useNotify } from '../../../notifications/context';
import { TOOLTIP_DELAYS } from '../../../lib/tooltip-delays';
import { Section } from '../Section';
import { useUrlParams } from '../../../lib/url-params';
import { FRIDAY_STATUS_LABELS, fridayOf, shiftWeeks } from '../../../lib/friday-status';
import { FridaysTable } from './FridaysTable';

interface FridaysSectionProps {
  /** Polling interval (ms) or false (Auto Refresh off). */
  polling: number | false;
  now: Date;
}

/**
 * Fridays: the ledger of one Friday (the coming one at first, past ones too), searched, filtered by status,
 * sorted and paged on the server. The Friday and the view live in the address (`?friday=…&status=…&q=…#fridays`),
 * so the Dashboard links here and a link reproduces the view.
 */
export function FridaysSection({ polling, now }: FridaysSectionProps) {
  const notify = useNotify();
  const { params, update } = useUrlParams();
  const { hash } = useLocation();
  // Arriving from the Dashboard's This Friday panel (`#fridays`): bring the view into sight.
  useEffect(() => {
    if (hash === '#fridays') document.getElementById('fridays')?.scrollIntoView?.({ block: 'start' });
  }, [hash]);
  const picked = params.get('friday');
  const parsedStatus = fridayStatusSchema.safeParse(params.get('status'));
  const status: FridayStatus | null = parsedStatus.success ? parsedStatus.data : null;
  const view = listViewFromParams(params, FRIDAY_SORT_FIELDS);
  const ledger = useFridaysPage(
    { ...(picked && { date: picked }), ...listQueryOfView(view), ...(status && { status }) },
    polling,
  );
  usePageInRange(ledger.data?.total, view, update);
  const restore = useRestoreJob();
  const search = useCallback((q: string) => update({ q, page: null }), [update]);
  const friday = ledger.data?.friday ?? picked ?? '';
  const counts = ledger.data?.counts;
  const everyRow = counts ? Object.values(counts).reduce((sum, count) => sum + count, 0) : 0;
  const total = ledger.data?.total ?? 0;

  const onRestore = (row: FridayRow) => {
    if (!row.job_id) return;
    restore.mutate(row.job_id, {
      onSuccess: ({ message }) => notify.success(message),
      onError: (error) => notify.error(schedulerErrorMessage(error, SCHEDULER_MESSAGES.restoreFailed)),
    });
  };

  return (
    <Box id="fridays">
      <Section id="fridays-ledger" title="Fridays" count={total} loading={ledger.isFetching}>
        <ErrorBanner
          message={ledger.isError ? schedulerErrorMessage(ledger.error, SCHEDULER_MESSAGES.fridaysFailed) : null}
        />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, p: 2 }}>
          <Tooltip title="Previous Friday" {...TOOLTIP_DELAYS}>
            <span>
              <IconButton
                aria-label="Previous Friday"
                onClick={() =>
                  update((current) => ({ friday: shiftWeeks(current.get('friday') ?? friday, -1), page: null }))
                }
                disabled={!friday}
              >
                <ChevronLeftIcon />
              </IconButton>
            </span>
          </Tooltip>
          <TextField
            type="date"
            size="small"
            label="Friday"
            value={friday}
            onChange={(event) => update({ friday: fridayOf(event.target.value), page: null })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Tooltip title="Next Friday" {...TOOLTIP_DELAYS}>
            <span>
              <IconButton
                aria-label="Next Friday"
                onClick={() =>
                  update((current) => ({ friday: shiftWeeks(current.get('friday') ?? friday, 1), page: null }))
                }
                disabled={!friday}
              >
                <ChevronRightIcon />
              </IconButton>
            </span>
          </Tooltip>
          <TextField
            select
            size="small"
            label="Status"
            value={status ?? 'all'}
            onChange={(event) =>
              update({ status: event.target.value === 'all' ? null : event.target.value, page: null })
            }
            sx={{ minWidth: 200 }}
          >
            <MenuItem value="all">{`All (${everyRow})`}</MenuItem>
            {FRIDAY_STATUSES.map((value) => (
              <MenuItem
                key={value}
                value={value}
              >{`${FRIDAY_STATUS_LABELS[value]} (${counts?.[value] ?? 0})`}</MenuItem>
            ))}
          </TextField>
          <SearchField label="Search Fridays" placeholder="Mosque name or ID" value={view.q} onSearch={search} />
          <Typography variant="body2" color="textSecondary" sx={{ ml: 'auto' }}>
            A Friday is captured when its recording covers 99% of its window.
          </Typography>
        </Box>
        <FridaysTable
          rows={ledger.data?.fridays ?? []}
          loading={ledger.isPending}
          sort={view.sort}
          order={view.order}
          onSort={(field) =>
            update((current) => ({ ...nextSort(listViewFromParams(current, FRIDAY_SORT_FIELDS), field), page: null }))
          }
          now={now}
          restoring={restore.isPending ? (restore.variables ?? null) : null}
          onRestore={onRestore}
        />
        <ListPagination total={total} view={view} onView={update} />
      </Section>
    </Box>
  );
}
