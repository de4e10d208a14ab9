import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Mosque } from '../../../../contract/mosques';
import { mockMosques, setMockMosques } from '../../../../src/mocks/handlers/config';
import { currentPath } from '../../support/render';
import { captureBodies } from '../../support/server';
import { dialog, notification, openConfig } from './helpers';
import { scaled } from '../../../../testkit/time-scale';

/** 30 mosques: every third disabled, names that sort differently from their ids. */
function seedFleet(): Mosque[] {
  const [template] = mockMosques();
  const fleet = Array.from({ length: 30 }, (_, i) => ({
    ...template,
    mosque_id: `fleet${String(i).padStart(5, '0')}`,
    name: `${String.fromCharCode(90 - (i % 26))} Fleet Mosque ${i}`,
    name_ar: null,
    city: i < 3 ? 'Leeds' : 'Elsewhere',
    active: i % 3 !== 0,
  }));
  setMockMosques(fleet);
  return fleet;
}

const table = () => screen.getByRole('table', { name: 'Mosques' });
/** Long enough for the search's pause and a mocked answer on a busy machine. */
const SETTLED = { timeout: scaled(30_000) };
const names = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[3]?.textContent ?? '');

describe('Mosque table: search, sort, filters and bulk actions', { timeout: scaled(120_000) }, () => {
  it('searches on the server after typing pauses, and keeps the search in the address', async () => {
    seedFleet();
    const { user } = await openConfig('Z Fleet Mosque 0');
    await user.type(screen.getByLabelText('Search mosques'), 'leeds');
    await waitFor(() => expect(names()).toHaveLength(3), SETTLED);
    expect(currentPath()).toBe('/config?q=leeds');
    expect(within(table()).queryByText('Y Fleet Mosque 1')).toBeInTheDocument();
    expect(screen.getByText('1–3 of 3')).toBeInTheDocument();
  });

  it('sorts by a column header, both ways, and a link with the view reproduces it', async () => {
    seedFleet();
    const { user, unmount } = await openConfig('Z Fleet Mosque 0');
    await user.click(within(table()).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(names()[0]).toBe('A Fleet Mosque 25'), SETTLED);
    await user.click(within(table()).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(names()[0]).toBe('Z Fleet Mosque 26'), SETTLED);
    const link = currentPath();
    expect(link).toBe('/config?sort=name&order=desc');
    unmount();
    await openConfig('Z Fleet Mosque 26', link);
    expect(names()[0]).toBe('Z Fleet Mosque 26');
    expect(names()[1]).toBe('Z Fleet Mosque 0');
  });

  it('filters by status from the address', async () => {
    seedFleet();
    await openConfig('Z Fleet Mosque 0', '/config?active=false&size=25');
    expect(names()).toHaveLength(10);
    expect(within(table()).getAllByText('Disabled')).toHaveLength(10);
  });

  it('deactivates the selected mosques after a confirmation that names the count', async () => {
    const fleet = seedFleet();
    const bodies = captureBodies('POST', '/api/config/mosques/bulk');
    const { user } = await openConfig('Y Fleet Mosque 1', '/config?active=true');
    await user.click(screen.getByLabelText('Select mosque fleet00001'));
    await user.click(screen.getByLabelText('Select mosque fleet00002'));
    expect(screen.getByRole('status')).toHaveTextContent('2 selected');
    await user.click(within(screen.getByLabelText('Selected mosques')).getByRole('button', { name: 'Deactivate' }));
    expect(dialog().getByText('Deactivate 2 mosques')).toBeInTheDocument();
    await user.click(dialog().getByRole('button', { name: 'Deactivate' }));
    expect(await notification('2 mosques deactivated')).toBeInTheDocument();
    expect(bodies).toEqual([{ action: 'deactivate', mosque_ids: ['fleet00001', 'fleet00002'] }]);
    expect(fleet.filter((m) => ['fleet00001', 'fleet00002'].includes(m.mosque_id)).every((m) => !m.active)).toBe(true);
    await waitFor(() => expect(screen.queryByLabelText('Selected mosques')).not.toBeInTheDocument(), SETTLED);
    await waitFor(() => expect(within(table()).queryByText('Y Fleet Mosque 1')).not.toBeInTheDocument(), SETTLED);
  });

  it('selects the whole page at once and deletes it after confirming', async () => {
    seedFleet();
    const { user } = await openConfig('Z Fleet Mosque 0');
    await user.click(screen.getByLabelText('Select every mosque on this page'));
    expect(screen.getByRole('status')).toHaveTextContent('10 selected');
    await user.click(within(screen.getByLabelText('Selected mosques')).getByRole('button', { name: 'Delete' }));
    expect(
      dialog().getByText('Are you sure you want to delete 10 mosques? This action cannot be undone.'),
    ).toBeInTheDocument();
    await user.click(dialog().getByRole('button', { name: 'Delete' }));
    expect(await notification('10 mosques deleted')).toBeInTheDocument();
    expect(mockMosques()).toHaveLength(20);
  });

  it('selects every mosque the filter matches and acts on the filter on the server, naming the count', async () => {
    const fleet = seedFleet();
    const bodies = captureBodies('POST', '/api/config/mosques/bulk');
    const { user } = await openConfig('Y Fleet Mosque 1', '/config?active=true');
    await user.click(screen.getByLabelText('Select every mosque on this page'));
    const bar = within(screen.getByLabelText('Selected mosques'));
    expect(screen.getByRole('status')).toHaveTextContent('10 selected');
    await user.click(bar.getByRole('button', { name: 'Select all 20 matching' }));
    expect(screen.getByRole('status')).toHaveTextContent('20 selected');
    // Scheduling takes ids, which the console does not have for the whole match.
    expect(bar.queryByRole('button', { name: 'Schedule Friday' })).not.toBeInTheDocument();
    await user.click(bar.getByRole('button', { name: 'Deactivate' }));
    expect(dialog().getByText('Deactivate 20 mosques')).toBeInTheDocument();
    await user.click(dialog().getByRole('button', { name: 'Deactivate' }));
    expect(await notification('20 mosques deactivated')).toBeInTheDocument();
    expect(bodies).toEqual([{ action: 'deactivate', matching: { active: true }, expected: 20 }]);
    expect(fleet.every((m) => !m.active)).toBe(true);
  });

  it('goes back to the rows when one is unticked after selecting all matching', async () => {
    seedFleet();
    const { user } = await openConfig('Z Fleet Mosque 0');
    await user.click(screen.getByLabelText('Select every mosque on this page'));
    await user.click(
      within(screen.getByLabelText('Selected mosques')).getByRole('button', { name: 'Select all 30 matching' }),
    );
    expect(screen.getByRole('status')).toHaveTextContent('30 selected');
    await user.click(screen.getByLabelText('Select mosque fleet00000'));
    expect(screen.getByRole('status')).toHaveTextContent('9 selected');
  });
});
