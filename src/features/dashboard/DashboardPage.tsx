import Grid from '@mui/material/Grid';
import { ConnectionLostBanner } from '../../widgets/ConnectionLostBanner';
import { PageHeader } from '../../components/PageHeader';
import { FleetCards } from './FleetCards';
import { QuickActions } from './QuickActions';
import { RecentActivity } from './RecentActivity';
import { SystemStatusPanel } from './SystemStatusPanel';
import { ThisFridayPanel } from './ThisFridayPanel';
import { useLiveRefresh } from './useLiveRefresh';

/** / — the fleet at a glance (docs/reference.md section 2, Dashboard). Counts follow the live feed without a reload. */
export default function DashboardPage() {
  useLiveRefresh();
  return (
    <>
      <PageHeader title="Dashboard" subtitle="Live overview of the capture fleet" />
      <ConnectionLostBanner />
      <Grid container spacing={3}>
        <FleetCards />
        <Grid size={12}>
          <ThisFridayPanel />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <SystemStatusPanel />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <RecentActivity />
        </Grid>
        <Grid size={12}>
          <QuickActions />
        </Grid>
      </Grid>
    </>
  );
}
