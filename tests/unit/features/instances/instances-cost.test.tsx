import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { InstanceCost } from '../../../../contract/instance-cost';
import { gate } from '../../../../testkit/gate';
import { scaled } from '../../../../testkit/time-scale';
import { server } from '../../support/server';
import { openInstances, seedFleet } from './helpers';

const COST: InstanceCost = {
  fridays: [
    {
      period: '2026-11-27',
      recordings: 5,
      instances: 6,
      instance_hours: 7,
      estimate_usd: 1.6717,
      unpriced_types: ['x9.odd'],
    },
    { period: '2026-11-20', recordings: 1, instances: 1, instance_hours: 1, estimate_usd: 0.0217, unpriced_types: [] },
  ],
  month: {
    period: '2026-11',
    recordings: 6,
    instances: 7,
    instance_hours: 8,
    estimate_usd: 1.6934,
    unpriced_types: [],
  },
  hourly_prices: { 't3.small': 0.0208 },
  price_source: 'AWS on-demand list prices, Linux, us-east-1',
  volume_gb: 8,
  generated_at: '2026-11-27T14:00:00.000Z',
};

const costCard = () => within(screen.getByText('Estimated cost, this Friday').closest('.MuiCard-root') as HTMLElement);

describe('Instances page: the cost card', { timeout: scaled(30_000) }, () => {
  it('reads "—" while the cost is loading, then this Friday, the last one and the month', async () => {
    const held = gate();
    server.use(
      http.get('/api/instances/cost', async () => {
        await held.opened;
        return HttpResponse.json({ success: true, data: COST });
      }),
    );
    seedFleet();
    await openInstances();
    expect(costCard().getByText('—')).toBeInTheDocument();
    expect(costCard().getByText('This Friday: —')).toBeInTheDocument();
    held.release();
    expect(await costCard().findByText('$1.67')).toBeInTheDocument();
    expect(costCard().getByText('This Friday: 6 instances · 7.0 h · $1.67 (no price for x9.odd)')).toBeInTheDocument();
    expect(costCard().getByText('Last Friday: 1 instance · 1.0 h · $0.02')).toBeInTheDocument();
    expect(costCard().getByText('November: 7 instances · 8.0 h · $1.69')).toBeInTheDocument();
  });

  it('says the cost is unavailable when the server fails, never $0', async () => {
    server.use(
      http.get('/api/instances/cost', () =>
        HttpResponse.json(
          { success: false, detail: 'Database unavailable', error: 'Database unavailable' },
          { status: 503 },
        ),
      ),
    );
    seedFleet();
    await openInstances();
    await waitFor(
      () => expect(costCard().getByText('Cost unavailable: the server did not answer')).toBeInTheDocument(),
      {
        timeout: scaled(10_000),
      },
    );
    expect(costCard().getByText('—')).toBeInTheDocument();
    expect(costCard().queryByText(/\$/)).not.toBeInTheDocument();
  });
});
