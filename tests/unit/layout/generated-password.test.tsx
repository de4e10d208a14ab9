import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { GENERATED_PASSWORD_WARNING } from '../../../src/layout/GeneratedPasswordBanner';
import { findUser, MOCK_ADMIN, MOCK_OPERATOR } from '../../../src/mocks/store';
import { currentPath, renderApp } from '../support/render';
import { fill } from '../support/fill';
import { scaled } from '../../../testkit/time-scale';

function stillGenerated(username: string) {
  const user = findUser(username);
  if (user) user.generated_credentials = true;
}

describe('the generated first password', { timeout: scaled(30_000) }, () => {
  it('is flagged above every page until it is replaced, and the banner leads to Change Password', async () => {
    stillGenerated(MOCK_ADMIN.username);
    const { user } = await renderApp('/instances', { as: 'admin' });
    expect(await screen.findByText(GENERATED_PASSWORD_WARNING)).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Change password' }));
    await waitFor(() => expect(currentPath()).toBe('/change-password'));
    // Not on the page that replaces it.
    expect(screen.queryByText(GENERATED_PASSWORD_WARNING)).not.toBeInTheDocument();

    for (const [label, value] of [
      ['Current Password', MOCK_ADMIN.password],
      ['New Password', 'My-own-Pass-2026'],
      ['Confirm New Password', 'My-own-Pass-2026'],
    ]) {
      await fill(user, screen.getByLabelText(label, { selector: 'input' }), value);
    }
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    await waitFor(() => expect(currentPath()).toBe('/profile'), { timeout: scaled(5000) });
    expect(screen.queryByText(GENERATED_PASSWORD_WARNING)).not.toBeInTheDocument();
  });

  it('is not flagged for an account with its own password', async () => {
    stillGenerated(MOCK_ADMIN.username);
    await renderApp('/instances', { as: MOCK_OPERATOR.username });
    await screen.findByRole('heading', { name: 'Instances', level: 1 });
    expect(screen.queryByText(GENERATED_PASSWORD_WARNING)).not.toBeInTheDocument();
  });
});
