import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { scaled } from '../../../../testkit/time-scale';
import { currentPath } from '../../support/render';
import { openInstances, seedFleet } from './helpers';

/** Long enough for the search's pause and a mocked answer on a busy machine. */
const SETTLED = { timeout: scaled(30_000) };
const table = () => screen.getByRole('table', { name: 'Instances' });
/** The instance names on screen, top to bottom. */
const names = () =>
  within(table())
    .queryAllByText(/^capture-/)
    .map((element) => element.textContent);

describe('Instances: search, state filter, sort and the view in the address', { timeout: scaled(120_000) }, () => {
  it('searches on the server after typing pauses, and keeps the search in the address', async () => {
    seedFleet();
    const { user } = await openInstances('capture-m1-run001');
    await user.type(screen.getByLabelText('Search instances'), 'pen001');
    await waitFor(() => expect(names()).toEqual(['capture-adhoc-pen001']), SETTLED);
    expect(currentPath()).toBe('/instances?q=pen001');
    expect(screen.getByText('1–1 of 1')).toBeInTheDocument();
  });

  it('filters by state from the address, and says when nothing matches', async () => {
    seedFleet();
    await openInstances('capture-adhoc-sto001', { path: '/instances?state=stopped' });
    expect(names()).toEqual(['capture-adhoc-sto001']);
    expect(screen.getByRole('combobox', { name: 'State' })).toHaveTextContent('Stopped');
  });

  it('says no instance matches a search that finds none, instead of inviting a first launch', async () => {
    seedFleet();
    await openInstances('No instances match', { path: '/instances?q=nothing-like-it' });
    expect(screen.queryByText('No instances found')).not.toBeInTheDocument();
  });

  it('sorts by a column header both ways, and a link with the view reproduces it', async () => {
    seedFleet();
    const { user, unmount } = await openInstances('capture-m1-run001');
    await user.click(within(table()).getByRole('button', { name: 'Instance' }));
    await waitFor(() => expect(names()[0]).toBe('capture-adhoc-pen001'), SETTLED);
    await user.click(within(table()).getByRole('button', { name: 'Instance' }));
    await waitFor(() => expect(names()[0]).toBe('capture-m1-run001'), SETTLED);
    const link = currentPath();
    expect(link).toBe('/instances?sort=name&order=desc');
    expect(names()).toEqual([
      'capture-m1-run001',
      'capture-adhoc-ter001',
      'capture-adhoc-stp001',
      'capture-adhoc-sto001',
      'capture-adhoc-pen001',
    ]);
    unmount();
    await openInstances('capture-m1-run001', { path: link });
    expect(names()[0]).toBe('capture-m1-run001');
    expect(names().at(-1)).toBe('capture-adhoc-pen001');
  });
});
