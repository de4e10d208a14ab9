import { fireEvent, screen, waitFor } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { LaunchRequest } from '../../../../contract/instances';
import { scaled } from '../../../../testkit/time-scale';
import { fill } from '../../support/fill';
import { server } from '../../support/server';
import { dialog, openInstances } from './helpers';

const field = (label: string | RegExp) => dialog().getByLabelText(label, { selector: 'input' });
const launchButton = () => dialog().getByRole('button', { name: 'Launch' });
const DAY = 86_400_000;

/** `at` in the browser's local time, as a datetime-local field holds it (minutes). */
function localField(at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}`;
}

async function openLaterLaunch() {
  const rendered = await openInstances('No instances found');
  const { user } = rendered;
  await user.click(screen.getByRole('button', { name: 'Launch Instance' }));
  await screen.findByRole('dialog', { name: 'Launch Instance' });
  await fill(user, field(/Stream URL/), 'https://example.com/eid.m3u8');
  expect(dialog().queryByLabelText(/Start at/)).not.toBeInTheDocument();
  await user.click(dialog().getByRole('combobox', { name: 'Start' }));
  await user.click(await screen.findByRole('option', { name: 'At a chosen time' }));
  return rendered;
}

const setStartAt = (value: string) => fireEvent.change(field(/Start at/), { target: { value } });

describe('Launch dialog: start now or at a chosen time', { timeout: scaled(30_000) }, () => {
  it('sends start_at as the UTC instant of the local time chosen, and says the launch is scheduled', async () => {
    const bodies: LaunchRequest[] = [];
    server.use(
      http.post('/api/instances/launch', async ({ request }) => {
        bodies.push((await request.clone().json()) as LaunchRequest);
        return undefined;
      }),
    );
    const { user } = await openLaterLaunch();
    // Chosen but empty: not ready to launch.
    expect(launchButton()).toBeDisabled();
    const at = new Date(Math.ceil((Date.now() + 2 * DAY) / 60_000) * 60_000);
    setStartAt(localField(at));
    expect(launchButton()).toBeEnabled();
    await user.click(launchButton());
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0].configs[0]).toMatchObject({ url: 'https://example.com/eid.m3u8', start_at: at.toISOString() });
    expect(await screen.findByText('Launched 0 instances; 1 scheduled for their start_at')).toBeInTheDocument();
  });

  it('refuses a time that has passed or is more than 14 days ahead, saying so beside the field', async () => {
    await openLaterLaunch();
    setStartAt(localField(new Date(Date.now() - 3_600_000)));
    expect(dialog().getByText('This time has passed: choose a later one, or start now')).toBeInTheDocument();
    expect(launchButton()).toBeDisabled();
    setStartAt(localField(new Date(Date.now() + 15 * DAY)));
    expect(dialog().getByText('At most 14 days ahead')).toBeInTheDocument();
    expect(launchButton()).toBeDisabled();
  });

  it('sends no start_at when the start is set back to now', async () => {
    const bodies: LaunchRequest[] = [];
    server.use(
      http.post('/api/instances/launch', async ({ request }) => {
        bodies.push((await request.clone().json()) as LaunchRequest);
        return undefined;
      }),
    );
    const { user } = await openLaterLaunch();
    setStartAt(localField(new Date(Date.now() + DAY)));
    await user.click(dialog().getByRole('combobox', { name: 'Start' }));
    await user.click(await screen.findByRole('option', { name: 'Now' }));
    await user.click(launchButton());
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0].configs[0]).not.toHaveProperty('start_at');
  });
});
