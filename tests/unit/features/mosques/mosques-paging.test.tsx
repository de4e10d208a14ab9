import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockMosques, setMockMosques } from '../../../../src/mocks/handlers/config';
import { cardValue, openConfig } from './helpers';
import { scaled } from '../../../../testkit/time-scale';

describe('Config Generator with a large fleet', { timeout: scaled(40_000) }, () => {
  it('renders one page of the mosque table at a time and pages through all of them', async () => {
    const [template] = mockMosques();
    const fleet = Array.from({ length: 1000 }, (_, i) => ({
      ...template,
      mosque_id: `fleet${String(i).padStart(5, '0')}`,
      name: `Fleet Mosque ${i}`,
    }));
    setMockMosques(fleet);
    await openConfig('Fleet Mosque 0');
    await waitFor(() => expect(cardValue('Total Mosques')).toBe('1000'));
    const table = screen.getByRole('table', { name: 'Mosques' });
    // A header row and ten mosques, not a thousand.
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    expect(screen.getByText(/^1–10 of 1,?000$/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await within(table).findByText('Fleet Mosque 10')).toBeInTheDocument();
    expect(within(table).queryByText('Fleet Mosque 0')).not.toBeInTheDocument();
  });
});
