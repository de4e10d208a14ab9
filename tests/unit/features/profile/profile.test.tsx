import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { AuthContext, type AuthContextValue } from '../../../../src/auth/context';
import ProfilePage from '../../../../src/features/profile/ProfilePage';
import { store, toPublicUser } from '../../../../src/mocks/store';
import { renderApp } from '../../support/render';

const signedOut: AuthContextValue = {
  status: 'authenticated',
  user: null,
  signOutReason: null,
  login: vi.fn(),
  logout: vi.fn(),
  updateUser: vi.fn(),
};

function renderProfile(auth: AuthContextValue) {
  return render(
    <AuthContext.Provider value={auth}>
      <MemoryRouter>
        <ProfilePage />
      </MemoryRouter>
    </AuthContext.Provider>,
  );
}

async function openProfile(as: string) {
  const rendered = await renderApp('/profile', { as });
  await screen.findByRole('heading', { name: 'My Profile', level: 1 });
  return rendered;
}

describe('My Profile', () => {
  it('shows the title, subtitle, avatar initials, names and chips', async () => {
    await openProfile('admin');
    expect(screen.getByText('View and manage your account information')).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(main).toHaveTextContent('SA'); // System Administrator
    expect(screen.getByRole('heading', { name: 'System Administrator', level: 2 })).toBeInTheDocument();
    expect(screen.getByText('@admin')).toBeInTheDocument();
    expect(screen.getByText('Admin')).toBeInTheDocument();
    expect(screen.getByText('Superuser')).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
  });

  it('lists the account details, with "Not set" for empty values and the superuser privileges', async () => {
    store.users[0].full_name = null;
    await openProfile('admin');
    expect(screen.getByText('Account Details')).toBeInTheDocument();
    expect(screen.getByText('Username').nextSibling).toHaveTextContent('admin');
    expect(screen.getByText('Email Address').nextSibling).toHaveTextContent('admin@example.com');
    expect(screen.getByText('Full Name').nextSibling).toHaveTextContent('Not set');
    expect(screen.getByText('Role').nextSibling).toHaveTextContent('Administrator');
    expect(screen.getByText('Superuser Privileges')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'admin', level: 2 })).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveTextContent('AD');
  });

  it('shows activity as a long date with seconds, and Never when missing', async () => {
    const created = new Date(2026, 0, 5, 9, 30, 15).toISOString();
    const updated = new Date(2026, 1, 9, 17, 4, 5).toISOString();
    // The contract allows only ISO instants; an unreadable one shown raw is formatLongDateTime's test (dates.test.ts).
    Object.assign(store.users[1], { created_at: created, updated_at: updated, last_login: null });
    await openProfile('operator');
    expect(screen.getByText('Account Created').nextSibling).toHaveTextContent('January 5, 2026, 9:30:15 AM');
    expect(screen.getByText('Last Updated').nextSibling).toHaveTextContent('February 9, 2026, 5:04:05 PM');
    // signing in through the mocks does not set last_login; the session was opened directly
    expect(screen.getByText('Last Login').nextSibling).toHaveTextContent('Never');
  });

  it('labels a plain user and offers only Change Password', async () => {
    await openProfile('operator');
    expect(screen.getByText('Role').nextSibling).toHaveTextContent(/^User$/);
    expect(screen.queryByText('Superuser')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Change Password' })).toHaveAttribute('href', '/change-password');
    expect(screen.queryByRole('link', { name: 'Manage Users' })).not.toBeInTheDocument();
  });

  it('offers Manage Users to superusers', async () => {
    await openProfile('admin');
    expect(screen.getByRole('link', { name: 'Manage Users' })).toHaveAttribute('href', '/users');
  });

  it('shows Inactive and User for an inactive plain account', () => {
    const user = { ...toPublicUser(store.users[1]), is_active: false };
    renderProfile({ ...signedOut, user });
    expect(screen.getByText('Inactive')).toBeInTheDocument();
    expect(screen.queryByText('Active')).not.toBeInTheDocument();
    expect(screen.getByText('FO')).toBeInTheDocument();
  });

  it('explains the security measures', async () => {
    await openProfile('admin');
    expect(screen.getByText(/hashed with Argon2/)).toBeInTheDocument();
    expect(screen.getByText(/expires after 24 hours of inactivity/)).toBeInTheDocument();
  });

  it('reads "User information not available" without a user', () => {
    renderProfile(signedOut);
    expect(screen.getByRole('alert')).toHaveTextContent('User information not available');
  });
});
