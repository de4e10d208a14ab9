import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockMosques } from '../../../../src/mocks/handlers/config';
import { LINK_SETTLE_MS, LOOKUP_MESSAGES } from '../../../../src/features/mosques/useCoordinateLookup';
import { MosqueFormDialog, UNSCHEDULABLE_WARNING } from '../../../../src/features/mosques/MosqueFormDialog';
import { EMPTY_MOSQUE_FORM } from '../../../../src/features/mosques/mosque-form';
import { renderWithProviders } from '../../support/render';
import { captureBodies, server } from '../../support/server';
import { dialog, field, gate, openConfig, row } from './helpers';
import { fill } from '../../support/fill';
import { scaled } from '../../../../testkit/time-scale';

afterEach(() => {
  server.events.removeAllListeners();
});

const MECCA_LINK = 'https://www.google.com/maps/place/Masjid+al-Haram/@21.4225,39.8262,17z/data=!3m1!4b1';

const showsNewId = () =>
  waitFor(() => expect((field(/Mosque ID/) as HTMLInputElement).value).toMatch(/^[a-z0-9]{10}$/));

/** Add Mosque opened from the Config page: for what the page does with the dialog (saving, its answers). */
async function openAdd() {
  const rendered = await openConfig();
  await rendered.user.click(screen.getByRole('button', { name: 'Add Mosque' }));
  await showsNewId();
  return rendered;
}

/**
 * The Add dialog by itself, for what it does alone (its fields, checks and lookups): opened from the
 * page, the page's table and cards cost each test more than the dialog (0.4 s of CPU against 0.13 s).
 */
async function openAddDialog() {
  const rendered = renderWithProviders(
    <MosqueFormDialog
      mode="add"
      initial={EMPTY_MOSQUE_FORM}
      saving={false}
      onCancel={() => undefined}
      onSubmit={() => expect.unreachable('these tests do not save')}
    />,
    { path: '/config', as: 'admin' },
  );
  await showsNewId();
  return rendered;
}

const addButton = () => dialog().getByRole('button', { name: 'Add Mosque' });

describe('Add New Mosque: fields and validation', { timeout: scaled(40_000) }, () => {
  it('shows a generated, read-only mosque id and every field', async () => {
    await openAddDialog();
    expect(screen.getByRole('dialog', { name: 'Add New Mosque' })).toBeInTheDocument();
    expect(field(/Mosque ID/)).toHaveAttribute('readonly');
    for (const label of [
      /Name \(English\)/,
      /Name \(Arabic\)/,
      /Languages/,
      /Google Maps URL/,
      /Latitude/,
      /Longitude/,
      /Timezone/,
      /City/,
      /District/,
      /Country/,
      /ID Token/,
    ]) {
      expect(field(label)).toBeInTheDocument();
    }
    expect(field(/Latitude/)).toHaveAttribute('type', 'number');
    expect(field(/Longitude/)).toHaveAttribute('type', 'number');
    expect(dialog().getByRole('switch', { name: 'Active' })).toBeChecked();
    expect(dialog().getByRole('combobox', { name: 'Broadcast Status' })).toHaveTextContent('Inactive');
    expect(dialog().getByRole('combobox', { name: 'Calculation Method' })).toHaveTextContent('By country (automatic)');
    expect(field(/Fixed Jumu'ah time/)).toHaveValue('');
  });

  it('another id can be asked for', async () => {
    const { user } = await openAddDialog();
    const first = (field(/Mosque ID/) as HTMLInputElement).value;
    await user.click(dialog().getByRole('button', { name: 'Generate another ID' }));
    await waitFor(() => expect(field(/Mosque ID/)).not.toHaveValue(first));
    expect((field(/Mosque ID/) as HTMLInputElement).value).toMatch(/^[a-z0-9]{10}$/);
  });

  it('writes the Arabic name right to left', async () => {
    await openAddDialog();
    expect(field(/Name \(Arabic\)/)).toHaveAttribute('dir', 'rtl');
  });

  it('needs an English name and at least one language', async () => {
    const { user } = await openAddDialog();
    expect(addButton()).toBeDisabled();
    await user.click(field(/Name \(English\)/));
    await user.click(field(/Languages/));
    await user.click(field(/Name \(Arabic\)/));
    expect(dialog().getByText('English name is required')).toBeInTheDocument();
    expect(dialog().getByText('At least one language is required')).toBeInTheDocument();
    await fill(user, field(/Name \(English\)/), 'Masjid al-Haram');
    expect(addButton()).toBeDisabled();
    await user.click(field(/Languages/));
    await user.click(await screen.findByRole('option', { name: 'Arabic (ar)' }));
    expect(addButton()).toBeEnabled();
  });

  it('takes languages from the list and custom codes typed in, as chips', async () => {
    const { user } = await openAddDialog();
    await user.click(field(/Languages/));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual([
      'English (en)',
      'Arabic (ar)',
      'Urdu (ur)',
      'Bengali (bn)',
      'Hindi (hi)',
      'Pashto (ps)',
      'French (fr)',
      'Spanish (es)',
    ]);
    await user.click(screen.getByRole('option', { name: 'English (en)' }));
    await fill(user, field(/Languages/), 'TR');
    await user.keyboard('{Enter}');
    await fill(user, field(/Languages/), 'pt-BR');
    await user.keyboard('{Enter}');
    expect(dialog().getByRole('button', { name: 'English (en)' })).toBeInTheDocument();
    expect(dialog().getByRole('button', { name: 'tr' })).toBeInTheDocument();
    expect(dialog().getByRole('button', { name: 'pt-BR' })).toBeInTheDocument();
  });

  it('refuses a custom language that is not a code', async () => {
    const { user } = await openAddDialog();
    await fill(user, field(/Name \(English\)/), 'Masjid');
    await fill(user, field(/Languages/), 'Turkish language');
    await user.keyboard('{Enter}');
    expect(dialog().getByText(/Not a language code: turkish language/)).toBeInTheDocument();
    expect(addButton()).toBeDisabled();
  });

  it('checks coordinates, time zone and fixed time before saving', async () => {
    const { user } = await openAddDialog();
    await fill(user, field(/Name \(English\)/), 'Masjid');
    await fill(user, field(/Languages/), 'en');
    await user.keyboard('{Enter}');
    expect(addButton()).toBeEnabled();
    await user.type(field(/Latitude/), '95');
    expect(dialog().getByText('Latitude must be a number between -90 and 90')).toBeInTheDocument();
    expect(addButton()).toBeDisabled();
    await user.clear(field(/Latitude/));
    await user.type(field(/Latitude/), '45');
    expect(dialog().getByText('Latitude and longitude must be given together')).toBeInTheDocument();
    await user.type(field(/Longitude/), '9');
    expect(addButton()).toBeEnabled();
    await fill(user, field(/Timezone/), 'Mars/Olympus');
    expect(dialog().getByText(/Not a known time zone/)).toBeInTheDocument();
    expect(addButton()).toBeDisabled();
  });
});

describe('Add New Mosque: map link', { timeout: scaled(40_000) }, () => {
  it('extracts coordinates and time zone as soon as the field holds a maps link, then fills in the place', async () => {
    const extracts = captureBodies('POST', '/api/config/coordinates/extract');
    const geocodes = captureBodies('POST', '/api/config/geocode');
    const { user } = await openAddDialog();
    await user.click(field(/Google Maps URL/));
    await user.paste(MECCA_LINK);
    await waitFor(() => expect(field(/Latitude/)).toHaveValue(21.4225));
    expect(field(/Longitude/)).toHaveValue(39.8262);
    expect(field(/Timezone/)).toHaveValue('Asia/Riyadh');
    await waitFor(() => expect(field(/City/)).toHaveValue('Mecca'));
    expect(field(/District/)).toHaveValue('Al Haram');
    expect(field(/Country/)).toHaveValue('Saudi Arabia');
    expect(extracts).toEqual([
      { mosque_ids: [], force_refresh: true, urls: [{ mosque_id: null, google_maps_url: MECCA_LINK }] },
    ]);
    expect(geocodes).toEqual([{ latitude: 21.4225, longitude: 39.8262 }]);
  });

  it('recognises the short and app-share forms too', async () => {
    const extracts = captureBodies('POST', '/api/config/coordinates/extract');
    const { user } = await openAddDialog();
    await user.click(field(/Google Maps URL/));
    await user.paste('https://maps.app.goo.gl/AbCdEf123');
    await waitFor(() => expect(field(/Latitude/)).toHaveValue(21.4225));
    await user.clear(field(/Google Maps URL/));
    await user.paste('goo.gl/maps/XyZ987');
    await waitFor(() => expect(extracts).toHaveLength(2));
  });

  it('keeps latitude and longitude read-only while extracting', async () => {
    const held = gate();
    server.use(
      http.post('/api/config/coordinates/extract', async () => {
        await held.opened;
        return HttpResponse.json({
          success: true,
          data: {
            extraction_results: [
              {
                mosque_id: null,
                google_maps_url: MECCA_LINK,
                success: true,
                latitude: 21.4225,
                longitude: 39.8262,
                timezone_guess: 'Asia/Riyadh',
                extraction_method: 'map_link',
                stored: false,
              },
            ],
          },
        });
      }),
    );
    const { user } = await openAddDialog();
    await fill(user, field(/Name \(English\)/), 'Masjid al-Haram');
    await fill(user, field(/Languages/), 'ar');
    await user.keyboard('{Enter}');
    await user.click(field(/Google Maps URL/));
    await user.paste(MECCA_LINK);
    expect(field(/Latitude/)).toHaveAttribute('readonly');
    expect(field(/Longitude/)).toHaveAttribute('readonly');
    expect(await dialog().findByLabelText('Extracting coordinates')).toBeInTheDocument();
    expect(addButton()).toBeDisabled();
    held.release();
    await waitFor(() => expect(field(/Latitude/)).not.toHaveAttribute('readonly'));
    expect(field(/Latitude/)).toHaveValue(21.4225);
    expect(field(/Longitude/)).not.toHaveAttribute('readonly');
    expect(addButton()).toBeEnabled();
  });

  it('does not call extraction for text that holds no maps link', async () => {
    const extracts = captureBodies('POST', '/api/config/coordinates/extract');
    const { user } = await openAddDialog();
    // Timers move on by themselves and are then moved past the settle time: an extraction would have started.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    await fill(user, field(/Google Maps URL/), 'https://example.com/maps/place/x');
    await vi.advanceTimersByTimeAsync(2 * LINK_SETTLE_MS);
    expect(extracts).toEqual([]);
    expect(field(/Latitude/)).not.toHaveAttribute('readonly');
  });

  it('looks up the place of coordinates typed in by hand', async () => {
    const { user } = await openAddDialog();
    await fill(user, field(/Latitude/), '30.0458');
    await fill(user, field(/Longitude/), '31.2625');
    await waitFor(() => expect(field(/City/)).toHaveValue('Cairo'));
    expect(field(/Country/)).toHaveValue('Egypt');
    expect(field(/Timezone/)).toHaveValue('Africa/Cairo');
  });

  it('keeps a time zone typed in while the place was being looked up', async () => {
    const held = gate();
    const geocodes = captureBodies('POST', '/api/config/geocode');
    server.use(
      http.post('/api/config/geocode', async () => {
        await held.opened;
        return HttpResponse.json({
          success: true,
          data: { city: 'Cairo', district: null, country: 'Egypt', country_code: 'EG', timezone: 'Africa/Cairo' },
        });
      }),
    );
    const { user } = await openAddDialog();
    await fill(user, field(/Latitude/), '30.0458');
    await fill(user, field(/Longitude/), '31.2625');
    await waitFor(() => expect(geocodes).toHaveLength(1));
    await fill(user, field(/Timezone/), 'Europe/London');
    held.release();
    await waitFor(() => expect(field(/City/)).toHaveValue('Cairo'));
    expect(field(/Timezone/)).toHaveValue('Europe/London');
  });

  it('shows why extraction and the place lookup failed beside their fields', async () => {
    server.use(
      http.post('/api/config/coordinates/extract', () =>
        HttpResponse.json({ success: false, detail: 'Maps unreachable', error: 'Maps unreachable' }, { status: 503 }),
      ),
      http.post('/api/config/geocode', () =>
        HttpResponse.json({ success: false, detail: 'Geocoder down', error: 'Geocoder down' }, { status: 503 }),
      ),
    );
    const { user } = await openAddDialog();
    await user.click(field(/Google Maps URL/));
    await user.paste(MECCA_LINK);
    expect(await dialog().findByText(/^Maps unreachable\. Type the latitude and longitude below/)).toBeInTheDocument();
    expect(field(/Google Maps URL/)).toHaveAttribute('aria-invalid', 'true');
    expect(field(/Latitude/)).toHaveValue(null);
    expect(field(/Latitude/)).not.toHaveAttribute('readonly');
    await user.type(field(/Latitude/), '30');
    await user.type(field(/Longitude/), '31');
    expect(await dialog().findByText('Geocoder down')).toBeInTheDocument();
    expect(field(/City/)).toHaveAttribute('aria-invalid', 'true');
  });

  it("shows the API's reason when the link holds no coordinates, and clears it when the link changes", async () => {
    const { user } = await openAddDialog();
    await user.click(field(/Google Maps URL/));
    await user.paste('https://www.google.com/maps/place/Somewhere');
    expect(await dialog().findByText(/^No coordinates found in the map link\. /)).toBeInTheDocument();
    expect(field(/Latitude/)).toHaveValue(null);
    await user.clear(field(/Google Maps URL/));
    expect(dialog().queryByText(/No coordinates found/)).not.toBeInTheDocument();
  });

  it('says when no time zone was found for the coordinates', async () => {
    server.use(
      http.post('/api/config/geocode', () =>
        HttpResponse.json({
          success: true,
          data: { city: null, district: null, country: null, country_code: null, timezone: null },
        }),
      ),
    );
    const { user } = await openAddDialog();
    await user.type(field(/Latitude/), '0');
    await user.type(field(/Longitude/), '-160');
    expect(await dialog().findByText(LOOKUP_MESSAGES.noTimezone)).toBeInTheDocument();
    await fill(user, field(/Timezone/), 'Pacific/Honolulu');
    expect(dialog().queryByText(LOOKUP_MESSAGES.noTimezone)).not.toBeInTheDocument();
  });
});

describe('Add New Mosque: saving', { timeout: scaled(40_000) }, () => {
  it('creates the mosque from a map link and shows it in the table', async () => {
    const bodies = captureBodies('POST', '/api/config/mosques');
    const { user } = await openAdd();
    const id = (field(/Mosque ID/) as HTMLInputElement).value;
    await fill(user, field(/Name \(English\)/), 'Masjid al-Haram');
    await fill(user, field(/Name \(Arabic\)/), 'المسجد الحرام');
    await user.click(field(/Languages/));
    await user.click(await screen.findByRole('option', { name: 'Arabic (ar)' }));
    await user.click(field(/Google Maps URL/));
    await user.paste(MECCA_LINK);
    await waitFor(() => expect(field(/City/)).toHaveValue('Mecca'));
    await fill(user, field(/ID Token/), 'UCharamain');
    await user.click(dialog().getByRole('combobox', { name: 'Broadcast Status' }));
    await user.click(screen.getByRole('option', { name: 'Playing' }));
    await user.click(addButton());
    expect(await screen.findByText('Mosque added successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText(id)).toBeInTheDocument();
    expect(row(id).getByText('Masjid al-Haram')).toBeInTheDocument();
    expect(row(id).getByText('Available')).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        mosque_id: id,
        name: 'Masjid al-Haram',
        name_ar: 'المسجد الحرام',
        languages: ['ar'],
        google_maps_url: MECCA_LINK,
        latitude: 21.4225,
        longitude: 39.8262,
        timezone: 'Asia/Riyadh',
        city: 'Mecca',
        district: 'Al Haram',
        country: 'Saudi Arabia',
        ID_token: 'UCharamain',
        active: true,
        broadcast_status: 'playing',
      },
    ]);
  });

  it("shows the API's reason for an unresolvable link before saving, and says the mosque will be unschedulable", async () => {
    const reason = 'Network unavailable: could not reach maps.app.goo.gl';
    server.use(
      http.post('/api/config/coordinates/extract', () =>
        HttpResponse.json({
          success: true,
          data: {
            extraction_results: [
              {
                mosque_id: null,
                google_maps_url: 'https://maps.app.goo.gl/abc123',
                success: false,
                latitude: null,
                longitude: null,
                timezone_guess: null,
                extraction_method: null,
                stored: false,
                error: reason,
              },
            ],
          },
        }),
      ),
    );
    const bodies = captureBodies('POST', '/api/config/mosques');
    const { user } = await openAdd();
    await fill(user, field(/Name \(English\)/), 'Masjid');
    await fill(user, field(/Languages/), 'en');
    await user.keyboard('{Enter}');
    await user.click(field(/Google Maps URL/));
    await user.paste('https://maps.app.goo.gl/abc123');
    expect(await dialog().findByText(new RegExp(`^${reason}\\. Type the latitude`))).toBeInTheDocument();
    await user.click(addButton());
    expect(dialog().getByRole('alert')).toHaveTextContent(UNSCHEDULABLE_WARNING);
    expect(bodies).toEqual([]);
    await user.click(dialog().getByRole('button', { name: 'Save without coordinates' }));
    expect(await screen.findByText('Mosque added successfully')).toBeInTheDocument();
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).not.toHaveProperty('latitude');
  });

  it('saves at once when coordinates are typed after the link failed', async () => {
    const bodies = captureBodies('POST', '/api/config/mosques');
    const { user } = await openAdd();
    await fill(user, field(/Name \(English\)/), 'Masjid');
    await fill(user, field(/Languages/), 'en');
    await user.keyboard('{Enter}');
    await user.click(field(/Google Maps URL/));
    await user.paste('https://www.google.com/maps/place/Somewhere');
    await dialog().findByText(/^No coordinates found in the map link/);
    await user.type(field(/Latitude/), '30');
    await user.type(field(/Longitude/), '31');
    await user.click(addButton());
    expect(await screen.findByText('Mosque added successfully')).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({ latitude: 30, longitude: 31 });
  });

  async function submitMinimal() {
    const rendered = await openAdd();
    await fill(rendered.user, field(/Name \(English\)/), 'Masjid');
    await fill(rendered.user, field(/Languages/), 'en');
    await rendered.user.keyboard('{Enter}');
    await rendered.user.click(addButton());
    return rendered;
  }

  it("shows the server's message when adding fails, and keeps the dialog open", async () => {
    server.use(
      http.post('/api/config/mosques', () =>
        HttpResponse.json(
          { success: false, detail: 'Mosque abc already exists', error: 'Mosque abc already exists' },
          { status: 409 },
        ),
      ),
    );
    await submitMinimal();
    expect(await screen.findByText('Mosque abc already exists')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add New Mosque' })).toBeInTheDocument();
  });

  it('falls back to "Failed to add mosque"', async () => {
    server.use(http.post('/api/config/mosques', () => HttpResponse.json({}, { status: 500 })));
    await submitMinimal();
    expect(await screen.findByText('Failed to add mosque')).toBeInTheDocument();
  });

  it('says "Network error occurred" when the server does not answer', async () => {
    server.use(http.post('/api/config/mosques', () => HttpResponse.error()));
    await submitMinimal();
    expect(await screen.findByText('Network error occurred')).toBeInTheDocument();
  });

  it('Cancel closes without saving', async () => {
    const { user } = await openAdd();
    await fill(user, field(/Name \(English\)/), 'Masjid');
    await user.click(dialog().getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(mockMosques()).toHaveLength(3);
  });
});

describe('Add New Mosque: the server refuses a field', { timeout: scaled(40_000) }, () => {
  it('shows the server’s sentence beside that field until it is edited, and keeps the dialog open', async () => {
    const detail = 'Request body is invalid: ID_token: ID token must not contain spaces';
    server.use(
      http.post('/api/config/mosques', () =>
        HttpResponse.json(
          { success: false, detail, error: detail, fields: { ID_token: 'ID token must not contain spaces' } },
          { status: 400 },
        ),
      ),
    );
    const { user } = await openAdd();
    await fill(user, field(/Name \(English\)/), 'Al Noor Mosque');
    await fill(user, field(/Languages/), 'ar');
    await user.keyboard('{Enter}');
    await fill(user, field(/ID Token/), 'has spaces');
    await user.click(addButton());
    await screen.findByText('ID token must not contain spaces');
    expect(field(/ID Token/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog', { name: 'Add New Mosque' })).toBeInTheDocument();
    expect(addButton()).toBeDisabled();
    await user.clear(field(/ID Token/));
    await fill(user, field(/ID Token/), 'UCalnoor');
    expect(screen.queryByText('ID token must not contain spaces')).not.toBeInTheDocument();
    expect(addButton()).toBeEnabled();
  });
});
