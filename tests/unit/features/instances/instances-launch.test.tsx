import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { LaunchRequest } from '../../../../contract/instances';
import { MOCK_DEMO_STREAM_URL } from '../../../../src/mocks/handlers/instances';
import { store } from '../../../../src/mocks/store';
import { gate } from '../../../../testkit/gate';
import { fill } from '../../support/fill';
import { server } from '../../support/server';
import { dialog, openInstances, row } from './helpers';
import { scaled } from '../../../../testkit/time-scale';

const field = (label: string | RegExp) => dialog().getByLabelText(label, { selector: 'input' });
const launchButton = () => dialog().getByRole('button', { name: 'Launch' });

async function openLaunch() {
  const rendered = await openInstances('No instances found');
  await rendered.user.click(screen.getByRole('button', { name: 'Launch Instance' }));
  await screen.findByRole('dialog', { name: 'Launch Instance' });
  return rendered;
}

/** Records the body of every launch request, then lets the mocks answer (a resolver returning nothing falls through). */
function captureLaunches(): LaunchRequest[] {
  const bodies: LaunchRequest[] = [];
  server.use(
    http.post('/api/instances/launch', async ({ request }) => {
      bodies.push((await request.clone().json()) as LaunchRequest);
      return undefined;
    }),
  );
  return bodies;
}

describe('Launch Instance dialog', { timeout: scaled(30_000) }, () => {
  it('starts with the defaults: duration 7200, 1280 x 720, no mosque, method api', async () => {
    await openLaunch();
    expect(field(/Stream URL/)).toHaveValue('');
    expect(field('Duration (seconds)')).toHaveValue(7200);
    expect(field('Width')).toHaveValue(1280);
    expect(field('Height')).toHaveValue(720);
    expect(field('Mosque')).toHaveValue('');
    expect(dialog().getByRole('combobox', { name: 'Method' })).toHaveTextContent('api');
  });

  it('keeps Launch disabled until a Stream URL is typed', async () => {
    const { user } = await openLaunch();
    expect(launchButton()).toBeDisabled();
    await fill(user, field(/Stream URL/), '   ');
    expect(launchButton()).toBeDisabled();
    await fill(user, field(/Stream URL/), 'https://example.com/live.m3u8');
    expect(launchButton()).toBeEnabled();
    await user.clear(field(/Stream URL/));
    expect(launchButton()).toBeDisabled();
  });

  it('shows the test broadcast URL in the helper text and fills it in on click', async () => {
    const { user } = await openLaunch();
    const link = await dialog().findByRole('button', { name: `Use the test broadcast ${MOCK_DEMO_STREAM_URL}` });
    expect(dialog().getByText(/Built-in test broadcast/)).toBeInTheDocument();
    await user.click(link);
    expect(field(/Stream URL/)).toHaveValue(MOCK_DEMO_STREAM_URL);
    expect(launchButton()).toBeEnabled();
  });

  it('sends one config with integers and max_workers 1, then shows the new instance', async () => {
    const bodies = captureLaunches();
    const { user } = await openLaunch();
    await fill(user, field(/Stream URL/), 'https://example.com/live.m3u8');
    await user.clear(field('Duration (seconds)'));
    await user.type(field('Duration (seconds)'), '90.7');
    await fill(user, field('Width'), '640');
    await fill(user, field('Height'), '360');
    // The mosque is picked by name; its id is what is sent.
    await user.type(field('Mosque'), 'London Cen');
    await user.click(await screen.findByRole('option', { name: /London Central Mosque/ }));
    expect(field('Mosque')).toHaveValue('London Central Mosque');
    await user.click(launchButton());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([
      {
        configs: [
          {
            url: 'https://example.com/live.m3u8',
            duration: 90,
            width: 640,
            height: 360,
            mosque_id: 'lcm4r8k2p1',
            method: 'api',
          },
        ],
        max_workers: 1,
      },
    ]);
    expect(await screen.findByText('Launched 1 instance')).toBeInTheDocument();
    const launched = await screen.findByText(/capture-lcm4r8k2p1-/);
    // The table names the mosque, with its id beneath: the name once its own read answers, which on a
    // busy machine can come after the row.
    const tr = within(launched.closest('tr') as HTMLElement);
    expect(await tr.findByText('London Central Mosque')).toBeInTheDocument();
    expect(tr.getByText('lcm4r8k2p1')).toBeInTheDocument();
  });

  it('sends mosque_id null when it is left empty, with the default numbers', async () => {
    const bodies = captureLaunches();
    const { user } = await openLaunch();
    await fill(user, field(/Stream URL/), 'rtmp://example.com/live');
    await user.click(launchButton());
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      configs: [
        { url: 'rtmp://example.com/live', duration: 7200, width: 1280, height: 720, mosque_id: null, method: 'api' },
      ],
      max_workers: 1,
    });
  });

  it('disables Launch while the request is on its way', async () => {
    const held = gate();
    server.use(
      http.post('/api/instances/launch', async () => {
        await held.opened;
        return HttpResponse.json({
          success: true,
          message: 'Launched 1 instance',
          data: { instances: [], failed: [] },
        });
      }),
    );
    const { user } = await openLaunch();
    await fill(user, field(/Stream URL/), 'https://example.com/live.m3u8');
    await user.click(launchButton());
    expect(launchButton()).toBeDisabled();
    expect(dialog().getByRole('button', { name: 'Cancel' })).toBeDisabled();
    held.release();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("shows the server's message when the launch is refused, and keeps what was typed", async () => {
    // A refusal that belongs to no field (field errors are shown beside their fields: launch-validation.test.tsx).
    const detail = 'The fleet is at its limit of 20 instances';
    server.use(
      http.post('/api/instances/launch', () =>
        HttpResponse.json({ success: false, detail, error: detail }, { status: 409 }),
      ),
    );
    const { user } = await openLaunch();
    await fill(user, field(/Stream URL/), 'https://example.com/live.m3u8');
    await user.click(launchButton());
    const alert = await dialog().findByRole('alert');
    expect(alert).toHaveTextContent(detail);
    expect(field(/Stream URL/)).toHaveValue('https://example.com/live.m3u8');
    await user.click(within(alert).getByRole('button', { name: /close/i }));
    expect(dialog().queryByRole('alert')).not.toBeInTheDocument();
  });

  it('reads "Failed to launch instance" when the server gives no message', async () => {
    server.use(http.post('/api/instances/launch', () => HttpResponse.json({ success: false }, { status: 500 })));
    const { user } = await openLaunch();
    await fill(user, field(/Stream URL/), 'https://example.com/live.m3u8');
    await user.click(launchButton());
    expect(await dialog().findByRole('alert')).toHaveTextContent('Failed to launch instance');
  });

  it('reads "Network error occurred" when the server cannot be reached', async () => {
    server.use(http.post('/api/instances/launch', () => HttpResponse.error()));
    const { user } = await openLaunch();
    await fill(user, field(/Stream URL/), 'https://example.com/live.m3u8');
    await user.click(launchButton());
    expect(await dialog().findByRole('alert')).toHaveTextContent('Network error occurred');
  });

  it('goes pending, then running through the live feed, without a reload', async () => {
    const { user } = await openLaunch();
    await screen.findByText('Connected: Yes');
    await fill(user, field(/Stream URL/), 'https://example.com/live.m3u8');
    // The mocks move it on after this long and push instance_status_update: long enough for the new row to show pending first.
    store.transitionMs = scaled(3000);
    await user.click(launchButton());
    const name = (await screen.findByText(/^capture-adhoc-/)).textContent ?? '';
    expect(row(name).getByText('pending')).toBeInTheDocument();
    expect(await row(name).findByText('running', {}, { timeout: scaled(8000) })).toBeInTheDocument();
  });
});
