import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TerminateRequest } from '../../../../contract/instances';
import { addMockInstances, mockInstance } from '../../../../src/mocks/handlers/instances';
import { store } from '../../../../src/mocks/store';
import { gate } from '../../../../testkit/gate';
import { server } from '../../support/server';
import { dialog, openInstances, openRowMenu, row, seedFleet } from './helpers';
import { scaled } from '../../../../testkit/time-scale';

const select = (name: string) => row(name).getByRole('checkbox', { name: `Select ${name}` });

function recordCalls(method: 'post', path: string) {
  const calls: { url: URL; body: unknown }[] = [];
  server.use(
    http[method](path, async ({ request }) => {
      const text = await request.clone().text();
      calls.push({ url: new URL(request.url), body: text ? (JSON.parse(text) as unknown) : null });
      return undefined;
    }),
  );
  return calls;
}

const partialFailure = (ids: string[]) =>
  HttpResponse.json({
    success: true,
    message: 'Terminate: 1 instance terminating, 1 failed',
    data: {
      results: ids.map((id, i) => ({
        instance_id: id,
        success: i === 0,
        state: i === 0 ? 'stopping' : 'running',
        message: i === 0 ? 'Terminating' : 'Provider refused',
      })),
      terminated: 1,
      failed: ids.length - 1,
    },
  });

// A terminated instance stays stopping for the mocks' transition, which these tests look at: on a busy
// machine the default 1.5 s had passed before the page showed it (the store's reset ends the wait).
beforeEach(() => {
  store.transitionMs = scaled(30_000);
});

describe('Terminate Selected', { timeout: scaled(30_000) }, () => {
  it('lets only running and pending instances be selected', async () => {
    const fleet = seedFleet();
    await openInstances();
    expect(select(fleet.running.name)).toBeEnabled();
    expect(select(fleet.pending.name)).toBeEnabled();
    for (const instance of [fleet.stopping, fleet.stopped, fleet.terminated])
      expect(select(instance.name)).toBeDisabled();
    expect(screen.queryByRole('button', { name: /Terminate Selected/ })).not.toBeInTheDocument();
  });

  it('shows Terminate Selected (n) with the selection count, and select-all picks every active instance', async () => {
    const fleet = seedFleet();
    const { user } = await openInstances();
    await user.click(select(fleet.running.name));
    expect(screen.getByRole('button', { name: 'Terminate Selected (1)' })).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select all running and pending instances' }));
    expect(screen.getByRole('button', { name: 'Terminate Selected (2)' })).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select all running and pending instances' }));
    expect(screen.queryByRole('button', { name: /Terminate Selected/ })).not.toBeInTheDocument();
  });

  it('asks for confirmation, then terminates the selected instances and clears the selection', async () => {
    const fleet = seedFleet();
    const calls = recordCalls('post', '/api/instances/terminate');
    const { user } = await openInstances();
    await user.click(select(fleet.running.name));
    await user.click(select(fleet.pending.name));
    await user.click(screen.getByRole('button', { name: 'Terminate Selected (2)' }));
    expect(
      dialog().getByText('Are you sure you want to terminate 2 selected instances? This action cannot be undone.'),
    ).toBeInTheDocument();
    await user.click(dialog().getByRole('button', { name: 'Terminate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.map((call) => call.body as TerminateRequest)).toEqual([
      { instance_ids: [fleet.running.id, fleet.pending.id] },
    ]);
    // The notification first: it closes itself after a few seconds, which the wait for the live update
    // below took on a busy machine.
    expect(await screen.findByText('Terminate: 2 instances terminating')).toBeInTheDocument();
    expect(await row(fleet.running.name).findByText('stopping')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Terminate Selected/ })).not.toBeInTheDocument();
  });

  it('does nothing when the confirmation is cancelled', async () => {
    const fleet = seedFleet();
    const calls = recordCalls('post', '/api/instances/terminate');
    const { user } = await openInstances();
    await user.click(select(fleet.running.name));
    await user.click(screen.getByRole('button', { name: 'Terminate Selected (1)' }));
    await user.click(dialog().getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toEqual([]);
    expect(screen.getByRole('button', { name: 'Terminate Selected (1)' })).toBeInTheDocument();
  });

  it('reports "Failed to terminate some instances" when the server could not stop them all', async () => {
    const fleet = seedFleet();
    server.use(http.post('/api/instances/terminate', () => partialFailure([fleet.running.id, fleet.pending.id])));
    const { user } = await openInstances();
    await user.click(screen.getByRole('checkbox', { name: 'Select all running and pending instances' }));
    await user.click(screen.getByRole('button', { name: 'Terminate Selected (2)' }));
    await user.click(dialog().getByRole('button', { name: 'Terminate' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to terminate some instances');
  });

  it('reports "Failed to terminate some instances" when the server refuses', async () => {
    const fleet = seedFleet();
    server.use(
      http.post('/api/instances/terminate', () =>
        HttpResponse.json({ success: false, detail: 'No', error: 'No' }, { status: 409 }),
      ),
    );
    const { user } = await openInstances();
    await user.click(select(fleet.running.name));
    await user.click(screen.getByRole('button', { name: 'Terminate Selected (1)' }));
    await user.click(dialog().getByRole('button', { name: 'Terminate' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to terminate some instances');
  });

  it('reports "Network error occurred" when the server cannot be reached', async () => {
    const fleet = seedFleet();
    server.use(http.post('/api/instances/terminate', () => HttpResponse.error()));
    const { user } = await openInstances();
    await user.click(select(fleet.running.name));
    await user.click(screen.getByRole('button', { name: 'Terminate Selected (1)' }));
    await user.click(dialog().getByRole('button', { name: 'Terminate' }));
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Network error occurred');
  });
});

describe('Terminate from the row menu', { timeout: scaled(30_000) }, () => {
  it('confirms and terminates that one instance', async () => {
    const fleet = seedFleet();
    const calls = recordCalls('post', '/api/instances/terminate');
    const { user } = await openInstances();
    const menu = await openRowMenu(user, fleet.running);
    await user.click(menu.getByRole('menuitem', { name: 'Terminate' }));
    expect(
      await screen.findByText(
        `Are you sure you want to terminate instance ${fleet.running.name}? This action cannot be undone.`,
      ),
    ).toBeInTheDocument();
    await user.click(dialog().getByRole('button', { name: 'Terminate' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toEqual({ instance_ids: [fleet.running.id] });
    expect(await row(fleet.running.name).findByText('stopping')).toBeInTheDocument();
  });
});

describe('Emergency stop', { timeout: scaled(30_000) }, () => {
  it('is disabled when no instance is running', async () => {
    addMockInstances(
      mockInstance({ name: 'capture-adhoc-pend02', state: 'pending' }),
      mockInstance({ name: 'capture-adhoc-term02', state: 'terminated' }),
    );
    await openInstances();
    expect(screen.getByRole('button', { name: 'Emergency Stop' })).toBeDisabled();
  });

  it('asks for confirmation, then calls terminate-all with force=true', async () => {
    const fleet = seedFleet();
    const calls = recordCalls('post', '/api/instances/terminate-all');
    const { user } = await openInstances();
    const stop = screen.getByRole('button', { name: 'Emergency Stop' });
    expect(stop).toBeEnabled();
    await user.click(stop);
    const confirm = await screen.findByRole('dialog', { name: 'Emergency Stop' });
    expect(confirm).toHaveTextContent('This action cannot be undone.');
    await user.click(dialog().getByRole('button', { name: 'Stop All Instances' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].url.searchParams.get('force')).toBe('true');
    expect(await row(fleet.running.name).findByText('stopping')).toBeInTheDocument();
    expect(row(fleet.pending.name).getByText('stopping')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Emergency Stop' })).toBeDisabled());
  });

  it('is disabled while the emergency stop is on its way', async () => {
    seedFleet();
    const held = gate();
    server.use(
      http.post('/api/instances/terminate-all', async () => {
        await held.opened;
        return HttpResponse.json({
          success: true,
          message: 'Emergency stop: 0 instances terminating',
          data: { results: [], terminated: 0, failed: 0 },
        });
      }),
    );
    const { user } = await openInstances();
    await user.click(screen.getByRole('button', { name: 'Emergency Stop' }));
    await user.click(dialog().getByRole('button', { name: 'Stop All Instances' }));
    expect(screen.getByRole('button', { name: 'Emergency Stop', hidden: true })).toBeDisabled();
    held.release();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('reports "Emergency stop failed" when the call fails', async () => {
    seedFleet();
    store.liveAvailable = false;
    server.use(
      http.post('/api/instances/terminate-all', () =>
        HttpResponse.json({ success: false, detail: 'Provider down', error: 'Provider down' }, { status: 503 }),
      ),
    );
    const { user } = await openInstances();
    await user.click(screen.getByRole('button', { name: 'Emergency Stop' }));
    await user.click(dialog().getByRole('button', { name: 'Stop All Instances' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Emergency stop failed');
  });

  it('reports "Emergency stop failed" when some instances could not be stopped', async () => {
    const fleet = seedFleet();
    server.use(http.post('/api/instances/terminate-all', () => partialFailure([fleet.running.id, fleet.pending.id])));
    const { user } = await openInstances();
    await user.click(screen.getByRole('button', { name: 'Emergency Stop' }));
    await user.click(dialog().getByRole('button', { name: 'Stop All Instances' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Emergency stop failed');
  });
});
