import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FRIDAY_STATUSES } from '../../../contract/fridays';
import { FRIDAY_STATUS_LABELS } from '../../../src/lib/friday-status';
import { seedDemoWorld } from '../../../src/mocks/demo-world';
import { renderApp } from '../support/render';
import { scaled } from '../../../testkit/time-scale';

/** What `npm run dev:mock` opens on: every page populated from the mocks. */
describe('the demo world of npm run dev:mock', { timeout: scaled(60_000) }, () => {
  it("shows this Friday's ledger with every status on the Dashboard, and the fleet's counts", async () => {
    seedDemoWorld();
    await renderApp('/', { as: 'admin' });
    const panel = within(
      (await screen.findByRole('heading', { name: 'This Friday' }, { timeout: scaled(30_000) })).closest(
        'section',
      ) as HTMLElement,
    );
    for (const status of FRIDAY_STATUSES) {
      expect(await panel.findByRole('link', { name: `${FRIDAY_STATUS_LABELS[status]}: 1 mosque` })).toBeInTheDocument();
    }
  });

  it('lists instances in several states', async () => {
    seedDemoWorld();
    await renderApp('/instances', { as: 'admin' });
    expect(await screen.findByText('capture-fpm2k7d4q8', {}, { timeout: scaled(30_000) })).toBeInTheDocument();
    expect(screen.getByText('capture-bcm5t1r6w2')).toBeInTheDocument();
  });

  it('lists recordings of every outcome', async () => {
    seedDemoWorld();
    await renderApp('/recordings', { as: 'admin' });
    const table = within(await screen.findByRole('table', { name: 'Recordings' }, { timeout: scaled(30_000) }));
    expect(await table.findByText('Birmingham Central Mosque')).toBeInTheDocument();
    for (const outcome of ['Recording', 'Captured', 'Partial', 'Failed'])
      expect(table.getAllByText(outcome).length).toBeGreaterThan(0);
  });
});
