import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { STREAM_URL_MESSAGE } from '../../../../contract/instances';
import { fill } from '../../support/fill';
import { server } from '../../support/server';
import { dialog, openInstances } from './helpers';
import { scaled } from '../../../../testkit/time-scale';

const field = (label: string | RegExp) => dialog().getByLabelText(label, { selector: 'input' });
const launchButton = () => dialog().getByRole('button', { name: 'Launch' });

async function openLaunch() {
  const rendered = await openInstances('No instances found');
  await rendered.user.click(screen.getByRole('button', { name: 'Launch Instance' }));
  await screen.findByRole('dialog', { name: 'Launch Instance' });
  return rendered;
}

describe('Launch Instance checks what the contract checks', { timeout: scaled(30_000) }, () => {
  it('says beside Width that it must be even, and holds Launch until it is', async () => {
    const { user } = await openLaunch();
    await fill(user, field(/Stream URL/), 'https://example.com/live.m3u8');
    await fill(user, field('Width'), '1281');
    expect(dialog().getByText('Width must be an even number')).toBeInTheDocument();
    expect(field('Width')).toHaveAttribute('aria-invalid', 'true');
    expect(launchButton()).toBeDisabled();
    await fill(user, field('Width'), '1280');
    expect(dialog().queryByText('Width must be an even number')).not.toBeInTheDocument();
    expect(launchButton()).toBeEnabled();
  });

  it('refuses a Stream URL the server would refuse once the field is left', async () => {
    const { user } = await openLaunch();
    await fill(user, field(/Stream URL/), 'ftp://example.com/live');
    expect(dialog().queryByText(STREAM_URL_MESSAGE)).not.toBeInTheDocument();
    await user.click(field('Height'));
    expect(dialog().getByText(STREAM_URL_MESSAGE)).toBeInTheDocument();
    expect(launchButton()).toBeDisabled();
  });

  it("shows the server's field error beside its field instead of a raw banner, until the field is edited", async () => {
    const detail = 'Request body is invalid: configs.0.height: Height must be at most 2160';
    server.use(
      http.post('/api/instances/launch', () =>
        HttpResponse.json(
          { success: false, detail, error: detail, fields: { 'configs.0.height': 'Height must be at most 2160' } },
          { status: 400 },
        ),
      ),
    );
    const { user } = await openLaunch();
    await fill(user, field(/Stream URL/), 'https://example.com/live.m3u8');
    await user.click(launchButton());
    expect(await dialog().findByText('Height must be at most 2160')).toBeInTheDocument();
    expect(field('Height')).toHaveAttribute('aria-invalid', 'true');
    expect(dialog().queryByText(detail)).not.toBeInTheDocument();
    await fill(user, field('Height'), '700');
    await waitFor(() => expect(dialog().queryByText('Height must be at most 2160')).not.toBeInTheDocument());
  });
});
