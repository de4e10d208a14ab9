import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Instance } from '../../../../contract/instances';
import { liveSocket } from '../../../../src/mocks/handlers/live';
import { mockInstance } from '../../../../src/mocks/handlers/instances';
import { store } from '../../../../src/mocks/store';
import InstancesPage from '../../../../src/features/instances/InstancesPage';
import { renderPage } from '../../support/render';
import { server } from '../../support/server';
import { cardValue, openInstances, openRowMenu, row, seedFleet } from './helpers';
import { scaled } from '../../../../testkit/time-scale';

describe('Instances page', { timeout: scaled(30_000) }, () => {
  it('shows the header: Connected chip, refresh and Launch Instance', async () => {
    seedFleet();
    await openInstances();
    expect(screen.getByRole('heading', { name: 'Instances', level: 1 })).toBeInTheDocument();
    expect(await screen.findByText('Connected: Yes')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Launch Instance' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
  });

  it('reads Connected: No while the live feed is down', async () => {
    store.liveAvailable = false;
    seedFleet();
    await openInstances();
    expect(screen.getByText('Connected: No')).toBeInTheDocument();
  });

  it('counts running and pending in the summary, not stopping, stopped or terminated', async () => {
    seedFleet();
    await openInstances();
    expect(cardValue('Running')).toBe('1');
    expect(cardValue('Pending')).toBe('1');
    expect(cardValue('Total')).toBe('2');
  });

  it('lists every instance: name and id, state chip, type, runtime, mosque id or N/A', async () => {
    const fleet = seedFleet();
    await openInstances();
    const headers = within(screen.getByRole('table', { name: 'Instances' })).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual([
      '',
      'Instance',
      'State',
      'Type',
      'Runtime',
      'Mosque',
      'Actions',
    ]);
    const running = row(fleet.running.name);
    expect(running.getByText('local-run001')).toBeInTheDocument();
    expect(running.getByText('running')).toHaveClass('MuiChip-label');
    expect(running.getByText('running').closest('.MuiChip-root')).toHaveClass('MuiChip-colorSuccess');
    expect(running.getByText('local')).toBeInTheDocument();
    expect(running.getByText('2.5h')).toBeInTheDocument();
    expect(running.getByText('m1')).toBeInTheDocument();
    const pending = row(fleet.pending.name);
    expect(pending.getByText('0m')).toBeInTheDocument();
    expect(pending.getByText('N/A')).toBeInTheDocument();
    expect(pending.getByText('pending').closest('.MuiChip-root')).toHaveClass('MuiChip-colorWarning');
    expect(row(fleet.stopping.name).getByText('stopping').closest('.MuiChip-root')).toHaveClass('MuiChip-colorInfo');
    expect(row(fleet.stopped.name).getByText('stopped').closest('.MuiChip-root')).toHaveClass('MuiChip-colorDefault');
    expect(row(fleet.terminated.name).getByText('terminated').closest('.MuiChip-root')).toHaveClass(
      'MuiChip-colorDefault',
    );
  });

  it('offers View Details, View Logs and Terminate for a running instance, and no Terminate otherwise', async () => {
    const fleet = seedFleet();
    const { user } = await openInstances();
    let menu = await openRowMenu(user, fleet.running);
    expect(menu.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'View Details',
      'View Logs',
      'Terminate',
    ]);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    for (const instance of [fleet.pending, fleet.stopping, fleet.terminated]) {
      menu = await openRowMenu(user, instance);
      expect(menu.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['View Details', 'View Logs']);
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    }
  });

  it('shows the empty state when there is no instance', async () => {
    await openInstances('No instances found');
    expect(screen.getByText('Launch your first instance to get started')).toBeInTheDocument();
    expect(cardValue('Total')).toBe('0');
  });

  it('reports "Failed to connect to API" in a dismissible banner when the list cannot be read', async () => {
    store.liveAvailable = false;
    server.use(
      http.get('/api/instances/', () =>
        HttpResponse.json({ success: false, detail: 'boom', error: 'boom' }, { status: 500 }),
      ),
    );
    const { user } = renderPage(<InstancesPage />, { path: '/instances', as: 'admin' });
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Failed to connect to API');
    await user.click(within(banner).getByRole('button', { name: /close/i }));
    expect(screen.queryByText('Failed to connect to API')).not.toBeInTheDocument();
  });

  it('reads the list again from the refresh icon', async () => {
    store.liveAvailable = false;
    let calls = 0;
    // Counted, then answered by the mocks from their store.
    server.use(
      http.get('/api/instances/', () => {
        calls += 1;
      }),
    );
    const { user } = await openInstances('No instances found');
    store.instances.push(mockInstance({ name: 'capture-adhoc-new001' }));
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('capture-adhoc-new001')).toBeInTheDocument();
    expect(calls).toBe(2);
  });

  it('follows the live feed without a reload: pending, then running, then gone from the summary', async () => {
    await openInstances('No instances found');
    await screen.findByText('Connected: Yes');
    const instance = mockInstance({ name: 'capture-adhoc-live01', state: 'pending', runtime_hours: 0 });
    // The server's fleet changes, then its feed says so (the table's page is read again from the server).
    const update = (state: Instance['state']) => {
      store.instances = [{ ...instance, state }];
      act(() => liveSocket.broadcast(JSON.stringify({ type: 'instance_status_update', data: store.instances })));
    };
    update('pending');
    expect(await screen.findByText('capture-adhoc-live01')).toBeInTheDocument();
    expect(row('capture-adhoc-live01').getByText('pending')).toBeInTheDocument();
    expect(cardValue('Pending')).toBe('1');

    update('running');
    expect(await row('capture-adhoc-live01').findByText('running')).toBeInTheDocument();
    expect(cardValue('Running')).toBe('1');
    expect(cardValue('Pending')).toBe('0');

    update('terminated');
    expect(await row('capture-adhoc-live01').findByText('terminated')).toBeInTheDocument();
    expect(cardValue('Total')).toBe('0');
  });
});
