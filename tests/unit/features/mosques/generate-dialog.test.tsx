import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GenerateDialog } from '../../../../src/features/mosques/GenerateDialog';
import { fill } from '../../support/fill';
import { renderWithProviders } from '../../support/render';
import { captureBodies, server } from '../../support/server';
import { AZHAR, dialog, EAST_LONDON, field, LONDON, openConfig } from './helpers';
import { scaled } from '../../../../testkit/time-scale';

interface Download {
  fileName: string;
  href: string;
  blob: Blob;
}

let downloads: Download[] = [];
let blobs = new Map<string, Blob>();
const originalCreate = URL.createObjectURL;
const originalRevoke = URL.revokeObjectURL;

beforeEach(() => {
  downloads = [];
  blobs = new Map();
  let next = 0;
  // The test DOM has no object URLs and does not download: record what the page offers instead.
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:test/${++next}`;
    blobs.set(url, blob);
    return url;
  };
  URL.revokeObjectURL = () => undefined;
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) downloads.push({ fileName: this.download, href: this.href, blob });
  });
});

afterEach(() => {
  URL.createObjectURL = originalCreate;
  URL.revokeObjectURL = originalRevoke;
  server.events.removeAllListeners();
});

/** The dialog by itself, for what it does alone (its fields and checks): the page's part is generating. */
function openGenerateDialog() {
  return renderWithProviders(
    <GenerateDialog
      generating={false}
      onCancel={() => undefined}
      onGenerate={() => expect.unreachable('these tests do not generate')}
    />,
    { path: '/config', as: 'admin' },
  );
}

/** Generate Configs opened from the Config page, which sends the request, downloads and says what came of it. */
async function openGenerate() {
  const rendered = await openConfig();
  await rendered.user.click(screen.getByRole('button', { name: 'Generate Configs' }));
  await screen.findByRole('dialog', { name: 'Generate Recording Configurations' });
  return rendered;
}

const generateButton = () => dialog().getByRole('button', { name: 'Generate' });

describe('Generate Recording Configurations', { timeout: scaled(40_000) }, () => {
  it('opens with the defaults: duration 7200, method API with its base URL, 1080 x 576', async () => {
    openGenerateDialog();
    expect(field(/Mosques/)).toHaveValue('');
    expect(field(/Duration/)).toHaveValue(7200);
    expect(dialog().getByRole('combobox', { name: 'Method' })).toHaveTextContent('API');
    expect(field(/API Base URL/)).toHaveValue(window.location.origin);
    expect(field(/Width/)).toHaveValue(1080);
    expect(field(/Height/)).toHaveValue(576);
  });

  it('shows the API base URL only for method api', async () => {
    const { user } = openGenerateDialog();
    await user.click(dialog().getByRole('combobox', { name: 'Method' }));
    await user.click(screen.getByRole('option', { name: 'Sequential' }));
    expect(dialog().queryByLabelText(/API Base URL/)).not.toBeInTheDocument();
    await user.click(dialog().getByRole('combobox', { name: 'Method' }));
    await user.click(screen.getByRole('option', { name: 'API' }));
    expect(field(/API Base URL/)).toBeInTheDocument();
  });

  it('generates for the chosen mosques and downloads the recordings as a JSON file', async () => {
    const bodies = captureBodies('POST', '/api/config/generate');
    const { user } = await openGenerate();
    await user.click(field(/Mosques/));
    await user.click(await screen.findByRole('option', { name: /London Central Mosque/ }));
    await user.clear(field(/Duration/));
    await user.type(field(/Duration/), '3600');
    await fill(user, field(/API Base URL/), 'https://capture.example.org');
    await user.click(generateButton());
    expect(await screen.findByText('Generated 1 recording configurations')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([
      {
        mosque_ids: [LONDON],
        duration: 3600,
        method: 'api',
        api_base_url: 'https://capture.example.org',
        width: 1080,
        height: 576,
      },
    ]);

    expect(downloads).toHaveLength(1);
    const [download] = downloads;
    expect(download.fileName).toMatch(/^recording-configs-\d{8}-\d{4}\.json$/);
    expect(download.blob.type).toBe('application/json');
    const recordings = JSON.parse(await download.blob.text()) as unknown[];
    expect(recordings).toEqual([
      expect.objectContaining({
        url: 'https://streams.example.com/live/london-central.m3u8',
        duration: 3600,
        width: 1080,
        height: 576,
        method: 'api',
        api_base_url: 'https://capture.example.org',
        mosque_id: LONDON,
        mosque_name: 'London Central Mosque',
        timezone: 'Europe/London',
      }),
    ]);
  });

  it('sends no API base URL for the sequential method, and every active mosque when none is chosen', async () => {
    const bodies = captureBodies('POST', '/api/config/generate');
    const { user } = await openGenerate();
    await user.click(dialog().getByRole('combobox', { name: 'Method' }));
    await user.click(screen.getByRole('option', { name: 'Sequential' }));
    await user.click(generateButton());
    // London has a stream URL; East London's channel id goes through the template; Al-Azhar is disabled.
    expect(await screen.findByText('Generated 2 recording configurations')).toBeInTheDocument();
    expect(bodies).toEqual([{ mosque_ids: [], duration: 7200, method: 'sequential', width: 1080, height: 576 }]);
    const recordings = JSON.parse(await downloads[0].blob.text()) as { mosque_id: string; url: string }[];
    expect(recordings.map((r) => r.mosque_id)).toEqual([LONDON, EAST_LONDON]);
    expect(recordings[1].url).toBe('https://www.youtube.com/channel/UCeastlondonmosque/live');
  });

  it('tells which chosen mosques were skipped', async () => {
    const { user } = await openGenerate();
    await user.click(field(/Mosques/));
    await user.click(await screen.findByRole('option', { name: /Al-Azhar Mosque/ }));
    await user.click(generateButton());
    expect(await screen.findByText('Generated 0 recording configurations')).toBeInTheDocument();
    expect(await screen.findByText(`Skipped 1 mosque: ${AZHAR}: Mosque is disabled`)).toBeInTheDocument();
    expect(downloads).toEqual([]);
  });

  it('needs whole numbers for duration and frame size', async () => {
    const { user } = openGenerateDialog();
    await user.clear(field(/Width/));
    expect(generateButton()).toBeDisabled();
    await user.type(field(/Width/), '1280');
    expect(generateButton()).toBeEnabled();
  });

  it('says "Failed to generate configurations", or the server\'s message, and stays open', async () => {
    server.use(http.post('/api/config/generate', () => HttpResponse.json({}, { status: 500 })));
    const { user } = await openGenerate();
    await user.click(generateButton());
    expect(await screen.findByText('Failed to generate configurations')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Generate Recording Configurations' })).toBeInTheDocument();
    server.use(
      http.post('/api/config/generate', () =>
        HttpResponse.json(
          { success: false, detail: 'API base URL must be an http(s) URL', error: 'x' },
          { status: 400 },
        ),
      ),
    );
    await user.click(generateButton());
    expect(await screen.findByText('API base URL must be an http(s) URL')).toBeInTheDocument();
    expect(downloads).toEqual([]);
  });

  it('says "Network error occurred" when the server does not answer', async () => {
    server.use(http.post('/api/config/generate', () => HttpResponse.error()));
    const { user } = await openGenerate();
    await user.click(generateButton());
    expect(await screen.findByText('Network error occurred')).toBeInTheDocument();
  });
});
