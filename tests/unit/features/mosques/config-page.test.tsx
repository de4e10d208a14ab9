import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { PrayerTimeRecord } from '../../../../contract/mosques';
import { setMockMosques } from '../../../../src/mocks/handlers/config';
import { server } from '../../support/server';
import { AZHAR, cardText, cardValue, EAST_LONDON, LONDON, openConfig, row } from './helpers';
import { scaled } from '../../../../testkit/time-scale';

afterEach(() => server.events.removeAllListeners());

const londonPrayer: PrayerTimeRecord = {
  mosque_id: LONDON,
  mosque_name: 'London Central Mosque',
  friday_prayer: '2026-01-09T12:12:00.000Z',
  recording_start: '2026-01-09T11:52:00.000Z',
  recording_time: '11:52',
  prayer_time: '12:12',
  timezone: 'Europe/London',
  calculation_method: 'MuslimWorldLeague',
};

describe('Config Generator page', { timeout: scaled(40_000) }, () => {
  it('shows the buttons and the four cards', async () => {
    await openConfig();
    expect(screen.getByRole('heading', { name: 'Config Generator' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Mosque' })).toBeEnabled();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Generate Configs' })).toBeEnabled());
    await waitFor(() => expect(cardValue('Prayer Times')).toBe('2'));
    expect(cardValue('Total Mosques')).toBe('3');
    expect(cardValue('Coordinates')).toBe('2');
    // Al-Azhar has coordinates and a prayer time but is disabled: it will not be recorded.
    expect(cardValue('Ready to Record')).toBe('1');
  });

  it('shows "—" on each card until the counts have come, never 0', async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get('/api/config/mosques/summary', async () => {
        await answered;
        return HttpResponse.json({ success: true, data: { total: 3, located: 2, timed: 2, ready: 1 } });
      }),
    );
    await openConfig();
    for (const title of ['Total Mosques', 'Coordinates', 'Prayer Times', 'Ready to Record'])
      expect(cardText(title)).toContain('—');
    expect(screen.queryByText(/^0$/)).not.toBeInTheDocument();
    answer();
    await waitFor(() => expect(cardValue('Ready to Record')).toBe('1'));
    expect(cardValue('Total Mosques')).toBe('3');
  });

  it('reads only the counts and the shown page, never the whole fleet', async () => {
    const asked: string[] = [];
    server.events.on('request:start', ({ request }) => {
      const url = new URL(request.url);
      asked.push(url.pathname + url.search);
    });
    await openConfig();
    await waitFor(() => expect(cardValue('Total Mosques')).toBe('3'));
    await waitFor(() => expect(row(LONDON).queryByLabelText('Prayer time loading')).not.toBeInTheDocument());
    expect(asked).not.toContain('/api/config/mosques');
    expect(asked).not.toContain('/api/config/coordinates');
    expect(asked).not.toContain('/api/config/prayer-times');
    expect(asked.some((url) => url.startsWith('/api/scheduler/jobs'))).toBe(false);
    expect(asked).toContain('/api/config/mosques/summary');
  });

  it('lists each mosque with status, id, names, place, languages, coordinates and prayer time', async () => {
    server.use(
      http.get('/api/config/prayer-times', () =>
        HttpResponse.json({ success: true, data: { prayer_times: [londonPrayer] } }),
      ),
    );
    await openConfig();
    const table = screen.getByRole('table', { name: 'Mosques' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    // The first column holds the select-all checkbox.
    expect(headers).toEqual([
      '',
      'Status',
      'Mosque ID',
      'Name',
      'City',
      'Languages',
      'Coordinates',
      'Prayer Times',
      'Actions',
    ]);

    const london = row(LONDON);
    expect(london.getByText('Enabled')).toBeInTheDocument();
    expect(london.getByText('London Central Mosque')).toBeInTheDocument();
    expect(london.getByText('مسجد لندن المركزي')).toHaveAttribute('dir', 'rtl');
    expect(london.getByText('London')).toBeInTheDocument();
    expect(london.getByText('Westminster')).toBeInTheDocument();
    expect(london.getByText('English')).toBeInTheDocument();
    expect(london.getByText('Arabic')).toBeInTheDocument();
    expect(london.getByText('Available')).toBeInTheDocument();
    expect(await london.findByText('12:12')).toBeInTheDocument();

    const eastLondon = row(EAST_LONDON);
    expect(eastLondon.getByText('Enabled')).toBeInTheDocument();
    expect(eastLondon.getByText('Bengali')).toBeInTheDocument();
    expect(eastLondon.getByText('Missing')).toBeInTheDocument();
    expect(eastLondon.getByText('Pending')).toBeInTheDocument();

    const azhar = row(AZHAR);
    expect(azhar.getByText('Disabled')).toBeInTheDocument();
    expect(azhar.getByText('Available')).toBeInTheDocument();
    expect(azhar.getByText('Pending')).toBeInTheDocument();
    expect(azhar.getByRole('button', { name: `Edit mosque ${AZHAR}` })).toBeInTheDocument();
    expect(azhar.getByRole('button', { name: `Delete mosque ${AZHAR}` })).toBeInTheDocument();
  });

  it('explains the prayer time chip in a tooltip', async () => {
    server.use(
      http.get('/api/config/prayer-times', () =>
        HttpResponse.json({ success: true, data: { prayer_times: [londonPrayer] } }),
      ),
    );
    const { user } = await openConfig();
    await user.hover(await row(LONDON).findByText('12:12'));
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip).toHaveTextContent('Friday prayer: Fri, 9 Jan 2026, 12:12');
    expect(tooltip).toHaveTextContent('Recording starts: 11:52');
    expect(tooltip).toHaveTextContent('Timezone: Europe/London');
    expect(tooltip).toHaveTextContent('Method: Muslim World League');
  });

  it('collapses and expands the Mosque Management table', async () => {
    const { user } = await openConfig();
    const summary = screen.getByRole('button', { name: /Mosque Management/ });
    expect(summary).toHaveAttribute('aria-expanded', 'true');
    await user.click(summary);
    expect(summary).toHaveAttribute('aria-expanded', 'false');
    await user.click(summary);
    expect(summary).toHaveAttribute('aria-expanded', 'true');
  });

  it('disables Generate Configs when there are no mosques', async () => {
    setMockMosques([]);
    await openConfig('No mosques configured yet. Add a mosque to get started.');
    await waitFor(() => expect(cardValue('Total Mosques')).toBe('0'));
    expect(screen.getByRole('button', { name: 'Generate Configs' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Add Mosque' })).toBeEnabled();
  });

  it('shows a dismissible banner when the mosques cannot be loaded', async () => {
    server.use(
      http.get('/api/config/mosques', () =>
        HttpResponse.json(
          { success: false, detail: 'Database unavailable', error: 'Database unavailable' },
          { status: 503 },
        ),
      ),
    );
    const { user } = await openConfig('Database unavailable');
    await user.click(within(screen.getByRole('alert')).getByRole('button', { name: /close/i }));
    expect(screen.queryByText('Database unavailable')).not.toBeInTheDocument();
  });
});
