import Typography from '@mui/material/Typography';
import PaidIcon from '@mui/icons-material/Paid';
import type { CostPeriod } from '../../../contract/instance-cost';
import { useInstanceCost } from '../../api/instances';
import { NOT_KNOWN, StatCard } from '../../components/StatCard';

const dollars = (usd: number) => `$${usd.toFixed(2)}`;
const hours = (value: number) => `${value.toFixed(1)} h`;
const monthName = (period: string) =>
  new Date(`${period}-01T00:00:00Z`).toLocaleString('en', { month: 'long', timeZone: 'UTC' });

/** `6 instances · 7.0 h · $0.17`, and the types the estimate could not price. */
function periodLine(label: string, period: CostPeriod | undefined) {
  if (!period) return `${label}: ${NOT_KNOWN}`;
  const unpriced = period.unpriced_types.length ? ` (no price for ${period.unpriced_types.join(', ')})` : '';
  return `${label}: ${period.instances} instance${period.instances === 1 ? '' : 's'} · ${hours(period.instance_hours)} · ${dollars(period.estimate_usd)}${unpriced}`;
}

/** The EC2 fleet's estimated cost (GET /api/instances/cost): this Friday in large, the last one and the month below. */
export function CostCard() {
  const cost = useInstanceCost();
  const [coming, last] = cost.data?.fridays ?? [];
  return (
    <StatCard
      title="Estimated cost, this Friday"
      value={coming ? dollars(coming.estimate_usd) : undefined}
      icon={<PaidIcon />}
      color="info"
      subtitle={cost.isError ? 'Cost unavailable: the server did not answer' : undefined}
    >
      {!cost.isError && (
        <Typography component="div" variant="body2" color="textSecondary" sx={{ mt: 0.5 }}>
          <div>{periodLine('This Friday', coming)}</div>
          <div>{periodLine('Last Friday', last)}</div>
          <div>{periodLine(cost.data ? monthName(cost.data.month.period) : 'This month', cost.data?.month)}</div>
        </Typography>
      )}
    </StatCard>
  );
}
