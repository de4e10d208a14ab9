import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { mockAmi, mockAmis } from '../../../../src/mocks/handlers/ami';
import AmiPage, { LOCAL_IMAGES_OPTIONAL } from '../../../../src/features/ami/AmiPage';
import { renderWithProviders } from '../../support/render';
import { server } from '../../support/server';
import { cardOf, openAmi, row, seedAmis } from './helpers';
import { scaled } from '../../../../testkit/time-scale';

describe('AMI Manager page', { timeout: scaled(30_000) }, () => {
  it('shows Refresh and Create AMI, the cards and the columns', async () => {
    seedAmis();
    await openAmi();
    expect(screen.getByRole('heading', { name: 'AMI Manager', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create AMI' })).toBeInTheDocument();
    const headers = within(screen.getByRole('table', { name: 'AMIs' })).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual([
      'Status',
      'Name',
      'AMI ID',
      'Version',
      'Size (GB)',
      'Created',
      'Latest',
      'Actions',
    ]);
  });

  it('counts total, available and pending, and names the latest version', async () => {
    seedAmis();
    await openAmi();
    expect(cardOf('Total AMIs').getByText('3')).toBeInTheDocument();
    expect(cardOf('Available').getByText('1')).toBeInTheDocument();
    expect(cardOf('Pending').getByText('1')).toBeInTheDocument();
    expect(cardOf('Latest Version').getByText('1.2.0')).toBeInTheDocument();
    expect(cardOf('Latest Version').getByText('mosque-recorder-20260110-100000')).toBeInTheDocument();
  });

  it('shows "—" on the cards while the images are read, never 0', async () => {
    seedAmis();
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get('/api/ami/list', async () => {
        await answered;
        return HttpResponse.json({ success: true, data: { amis: [], provider: 'local' } });
      }),
    );
    renderWithProviders(<AmiPage />, { path: '/ami', as: 'admin' });
    await screen.findByText('Total AMIs', { selector: 'p' });
    for (const title of ['Total AMIs', 'Available', 'Pending', 'Latest Version'])
      expect(cardOf(title).getByText('—')).toBeInTheDocument();
    expect(cardOf('Latest Version').queryByText('No available AMI')).not.toBeInTheDocument();
    answer();
    expect(await cardOf('Total AMIs').findByText('0')).toBeInTheDocument();
    expect(cardOf('Latest Version').getByText('No available AMI')).toBeInTheDocument();
  });

  it('lists each AMI: status, name and description, id, version, size, created, latest flag', async () => {
    seedAmis();
    await openAmi();
    const latest = row('ami-00000aaa');
    expect(latest.getByText('available').closest('.MuiChip-root')).toHaveClass('MuiChip-colorSuccess');
    expect(latest.getByText('mosque-recorder-20260110-100000')).toBeInTheDocument();
    expect(latest.getByText('Stable recorder')).toBeInTheDocument();
    expect(latest.getByText('1.2.0')).toBeInTheDocument();
    expect(latest.getByText('8.5')).toBeInTheDocument();
    expect(latest.getByText('Jan 10, 2026', { exact: false })).toBeInTheDocument();
    expect(latest.getByText('Latest')).toBeInTheDocument();
    expect(row('ami-00000bbb').getByText('pending').closest('.MuiChip-root')).toHaveClass('MuiChip-colorWarning');
    expect(row('ami-00000bbb').queryByText('Latest')).not.toBeInTheDocument();
    expect(row('ami-00000ccc').getByText('failed').closest('.MuiChip-root')).toHaveClass('MuiChip-colorError');
  });

  it('disables delete while an AMI is pending', async () => {
    seedAmis();
    await openAmi();
    expect(row('ami-00000aaa').getByRole('button', { name: 'Delete ami-00000aaa' })).toBeEnabled();
    expect(row('ami-00000bbb').getByRole('button', { name: 'Delete ami-00000bbb' })).toBeDisabled();
    expect(row('ami-00000ccc').getByRole('button', { name: 'Delete ami-00000ccc' })).toBeEnabled();
  });

  it('shows the empty state when there is no AMI, saying images are optional on the local provider', async () => {
    await openAmi('No AMIs found. Create your first AMI to get started.');
    expect(screen.getByText(LOCAL_IMAGES_OPTIONAL)).toBeInTheDocument();
    expect(cardOf('Total AMIs').getByText('0')).toBeInTheDocument();
    expect(cardOf('Latest Version').getByText('N/A')).toBeInTheDocument();
  });

  it('loads the list again on Refresh', async () => {
    const { user } = await openAmi('No AMIs found. Create your first AMI to get started.');
    mockAmis().push(mockAmi({ ami_id: 'ami-0000new1' }));
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('ami-0000new1')).toBeInTheDocument();
  });

  it("shows the server's error when the list cannot be loaded, dismissibly", async () => {
    server.use(
      http.get('/api/ami/list', () =>
        HttpResponse.json(
          { success: false, detail: 'EC2 is unavailable', error: 'EC2 is unavailable' },
          { status: 503 },
        ),
      ),
    );
    const { user } = renderWithProviders(<AmiPage />, { path: '/ami', as: 'admin' });
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('EC2 is unavailable');
    await user.click(within(banner).getByRole('button', { name: /close/i }));
    expect(screen.queryByText('EC2 is unavailable')).not.toBeInTheDocument();
  });

  it('reads "Failed to load AMIs" when the server gives no error text', async () => {
    server.use(http.get('/api/ami/list', () => HttpResponse.json({ success: false }, { status: 500 })));
    renderWithProviders(<AmiPage />, { path: '/ami', as: 'admin' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load AMIs');
  });

  it('reads "Error loading AMIs: {message}" when the server cannot be reached', async () => {
    server.use(http.get('/api/ami/list', () => HttpResponse.error()));
    renderWithProviders(<AmiPage />, { path: '/ami', as: 'admin' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Error loading AMIs: Network Error');
  });
});
