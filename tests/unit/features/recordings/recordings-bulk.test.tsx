import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { store } from '../../../../src/mocks/store';
import { scaled } from '../../../../testkit/time-scale';
import { currentPath } from '../../support/render';
import { captureBodies } from '../../support/server';
import { notification } from '../mosques/helpers';
import { open, show, table } from './helpers';

/** Long enough for the search's pause and a mocked answer on a busy machine. */
const SETTLED = { timeout: scaled(30_000) };
/** The mosque named on each row, top to bottom. */
const mosques = () =>
  table()
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[2]?.querySelector('p')?.textContent ?? '');
const bar = () => within(screen.getByRole('toolbar', { name: 'Selected recordings' }));
const confirmation = async (name: string) => within(await screen.findByRole('dialog', { name }));

describe('Recordings: search, sort, the view in the address, and bulk actions', { timeout: scaled(120_000) }, () => {
  const { createObjectURL, revokeObjectURL } = URL;
  afterEach(() => {
    Object.assign(URL, { createObjectURL, revokeObjectURL });
  });

  it('searches by mosque on the server after typing pauses, and keeps the search in the address', async () => {
    const { user } = await open();
    await user.type(screen.getByLabelText('Search recordings'), 'azhar');
    await waitFor(() => expect(mosques()).toEqual(['Al-Azhar Mosque']), SETTLED);
    expect(currentPath()).toBe('/recordings?q=azhar');
    expect(screen.getByText('1–1 of 1')).toBeInTheDocument();
  });

  it('sorts by a column header both ways, and a link with the view reproduces it', async () => {
    const { user, unmount } = await open();
    expect(mosques()[0]).toBe('Al-Azhar Mosque'); // newest first
    await user.click(table().getByRole('button', { name: 'Mosque' }));
    await waitFor(() => expect(mosques().slice(0, 2)).toEqual(['Al-Azhar Mosque', 'East London Mosque']), SETTLED);
    await user.click(table().getByRole('button', { name: 'Mosque' }));
    await waitFor(() => expect(mosques()[0]).toBe('London Central Mosque'), SETTLED);
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await screen.findByText('11–14 of 14', {}, SETTLED);
    const link = currentPath();
    expect(link).toBe('/recordings?sort=mosque&order=desc&page=1');
    unmount();
    await show('admin', link, 'East London Mosque');
    expect(mosques()).toEqual([
      'London Central Mosque',
      'London Central Mosque',
      'East London Mosque',
      'Al-Azhar Mosque',
    ]);
  });

  it('saves the download links of the selection as a list after a confirmation naming the count, and names the ones without media', async () => {
    const saved: Blob[] = [];
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => (saved.push(blob), 'blob:recording-links'),
      revokeObjectURL: vi.fn(),
    });
    // The browser saves a clicked download link; here the click is only noted (it would navigate the test's window).
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(`${this.download} ${this.getAttribute('href')}`);
    });
    const bodies = captureBodies('POST', '/api/recordings/media-links');
    const { user } = await open();
    const [failed, partial] = [store.recordings.at(-1)?.id ?? '', store.recordings.at(-2)?.id ?? ''];
    await user.click(screen.getByLabelText(`Select recording ${failed}`));
    await user.click(screen.getByLabelText(`Select recording ${partial}`));
    expect(bar().getByRole('status')).toHaveTextContent('2 selected');
    await user.click(bar().getByRole('button', { name: 'Download links' }));
    const dialog = await confirmation('Download links of 2 recordings');
    await user.click(dialog.getByRole('button', { name: 'Save links' }));
    expect(await notification('1 download link saved (they expire in a few hours)')).toBeInTheDocument();
    expect(
      await notification(`No download link for 1 recording: ${failed} (Recording ${failed} has no media to play)`),
    ).toBeInTheDocument();
    expect(bodies).toEqual([{ recording_ids: [failed, partial] }]);
    expect(saved).toHaveLength(1);
    expect(downloads).toEqual([expect.stringMatching(/^recording-links-\d{8}-\d{4}\.txt blob:recording-links$/)]);
    // One absolute link a line, on the console's own origin.
    const links = (await saved[0].text()).split('\n');
    expect(links).toEqual([expect.stringMatching(/^http:\/\/[^/]+\/api\/recordings\//), '']);
    expect(new URL(links[0]).pathname + new URL(links[0]).search).toBe(
      `/api/recordings/${partial}/media?token=1.00000000-0000-4000-8000-000000000000.mock-signature-of-the-media-link&download=1`,
    );
    await waitFor(
      () => expect(screen.queryByRole('toolbar', { name: 'Selected recordings' })).not.toBeInTheDocument(),
      SETTLED,
    );
  });

  it('deletes the whole page after a confirmation naming the count', async () => {
    const { user } = await open();
    await user.click(screen.getByLabelText('Select every recording on this page'));
    expect(bar().getByRole('status')).toHaveTextContent('10 selected');
    await user.click(bar().getByRole('button', { name: 'Delete' }));
    const dialog = await confirmation('Delete 10 recordings');
    expect(dialog.getByText(/Are you sure you want to delete 10 recordings\?/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await notification('10 recordings deleted')).toBeInTheDocument();
    expect(store.recordings).toHaveLength(4);
    await screen.findByText('1–4 of 4', {}, SETTLED);
  });

  it('offers an operator who is not a superuser the links but not the delete', async () => {
    const { user } = await open('operator');
    await user.click(screen.getByLabelText('Select every recording on this page'));
    expect(bar().getByRole('button', { name: 'Download links' })).toBeInTheDocument();
    expect(bar().queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });
});
