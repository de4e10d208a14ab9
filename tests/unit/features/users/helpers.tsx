import { screen, within } from '@testing-library/react';
import UsersPage from '../../../../src/features/users/UsersPage';
import { renderWithProviders } from '../../support/render';

/** The /users page alone (its superuser guard included), signed in as `as`, at `path` (a view in its address). */
export const renderUsersPage = (as = 'admin', path = '/users') => renderWithProviders(<UsersPage />, { path, as });

/** /users as `as` (admin by default), once the list has loaded. */
export async function openUsers(as = 'admin') {
  const rendered = renderUsersPage(as);
  await screen.findByText('@operator');
  return rendered;
}

export const row = (username: string) => {
  const cell = screen.getByText(`@${username}`);
  const tr = cell.closest('tr');
  if (!tr) throw new Error(`No row for ${username}`);
  return within(tr);
};

export const dialog = () => within(screen.getByRole('dialog'));

export const field = (label: string | RegExp) => dialog().getByLabelText(label, { selector: 'input' });
