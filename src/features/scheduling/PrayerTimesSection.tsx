import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useCallback, useState } from 'react';
import { PRAYER_TIME_SORT_FIELDS } from '../../../contract/prayer-time-list';
import type { SchedulerPrayerTime } from '../../../contract/scheduler';
import { SCHEDULER_MESSAGES, schedulerErrorMessage, useSchedulerPrayerTimesPage } from '../../api/scheduler';
import { ErrorBanner } from '../../components/ErrorBanner';
import { ListPagination, usePageInRange } from '../../components/ListPagination';
import { SearchField } from '../../components/SearchField';
import { listQueryOfView, listViewFromParams, nextSort } from '../../lib/list-view';
import { useScopedUrlParams } from '../../lib/url-params';
import { PrayerTimeCard } from './PrayerTimeCard';
import { PrayerTimesTable } from './PrayerTimesTable';
import { Section } from './Section';

/**
 * Prayer Times (docs/reference.md section 2, Scheduling): the active mosques' coming Friday prayers, searched,
 * sorted and paged on the server (a fleet of 10,000 is ten rows here, not 10,000 cards), with the view in the
 * address under `prayer.` (`?prayer.q=…&prayer.sort=…`) beside the Fridays view. A mosque's card opens from its row.
 */
export function PrayerTimesSection({ polling }: { polling: number | false }) {
  const { params, update } = useScopedUrlParams('prayer');
  const view = listViewFromParams(params, PRAYER_TIME_SORT_FIELDS);
  const page = useSchedulerPrayerTimesPage(listQueryOfView(view), polling);
  usePageInRange(page.data?.total, view, update);
  const [selected, setSelected] = useState<SchedulerPrayerTime | null>(null);
  const search = useCallback((q: string) => update({ q, page: null }), [update]);
  const total = page.data?.total;

  return (
    <Section id="prayer-times" title="Prayer Times" count={total} loading={page.isFetching}>
      <ErrorBanner message={page.isError ? schedulerErrorMessage(page.error, SCHEDULER_MESSAGES.loadFailed) : null} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, p: 2 }}>
        <SearchField
          label="Search prayer times"
          placeholder="Mosque name or ID, or time zone"
          value={view.q}
          onSearch={search}
        />
        <Typography variant="body2" color="textSecondary" sx={{ ml: 'auto' }}>
          Each mosque&apos;s coming Friday, on its own clock. Select a name for its card.
        </Typography>
      </Box>
      {selected && (
        <Box sx={{ px: 2, pb: 2 }}>
          <PrayerTimeCard record={selected} onClose={() => setSelected(null)} />
        </Box>
      )}
      <PrayerTimesTable
        rows={page.data?.prayer_times ?? []}
        loading={page.isPending}
        sort={view.sort}
        order={view.order}
        onSort={(field) =>
          update((current) => ({
            ...nextSort(listViewFromParams(current, PRAYER_TIME_SORT_FIELDS), field),
            page: null,
          }))
        }
        selected={selected?.mosque_id ?? null}
        onSelect={setSelected}
      />
      <ListPagination total={total ?? 0} view={view} onView={update} />
    </Section>
  );
}
