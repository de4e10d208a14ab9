import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { store } from '../../../../src/mocks/store';
import { gate } from '../../../../testkit/gate';
import { captureBodies, server } from '../../support/server';
import { currentPath } from '../../support/render';
import { openUsers, renderUsersPage, row } from './helpers';

/** Long enough for the search's pause and a mocked answer on a busy machine. */
const SETTLED = { timeout: scaled(10_000) };
import { scaled } from '../../../../testkit/time-scale';

describe('User Management list', { timeout: scaled(15_000) }, () => {
  it('shows the title, subtitle, controls and columns', async () => {
    await openUsers();
    expect(screen.getByRole('heading', { name: 'User Management', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Manage user accounts and permissions')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create User' })).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Search users...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
    const headers = within(screen.getByRole('table', { name: 'Users' })).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual(['User', 'Email', 'Role', 'Status', 'Last Login', 'Actions']);
  });

  it('shows each user: name, @username, email, role and Super chips, status and last login', async () => {
    await openUsers();
    const admin = row('admin');
    expect(admin.getByText('System Administrator')).toBeInTheDocument();
    expect(admin.getByText('admin@example.com')).toBeInTheDocument();
    expect(admin.getByText('Admin')).toBeInTheDocument();
    expect(admin.getByText('Super')).toBeInTheDocument();
    expect(admin.getByText('Active')).toBeInTheDocument();
    expect(admin.queryByText('Never')).not.toBeInTheDocument();
    const operator = row('operator');
    expect(operator.getByText('Fleet Operator')).toBeInTheDocument();
    expect(operator.getByText('User')).toBeInTheDocument();
    expect(operator.queryByText('Super')).not.toBeInTheDocument();
    expect(operator.getByText('Never')).toBeInTheDocument();
  });

  it('falls back to the username when there is no full name', async () => {
    store.users[1].full_name = null;
    await openUsers();
    expect(row('operator').getByText('operator')).toBeInTheDocument();
  });

  it('reads "Loading users..." while the list loads', async () => {
    const held = gate();
    server.use(
      http.get('/api/auth/users', async () => {
        await held.opened;
        return HttpResponse.json({ users: [] });
      }),
    );
    renderUsersPage();
    expect(await screen.findByText('Loading users...')).toBeInTheDocument();
    held.release();
    expect(await screen.findByText('No users found')).toBeInTheDocument();
  });

  it('searches by username, email or full name on the server, ignoring case, and keeps the search in the address', async () => {
    const { user } = await openUsers();
    const search = screen.getByPlaceholderText('Search users...');
    await user.type(search, 'FLEET');
    await waitFor(() => expect(screen.queryByText('@admin')).not.toBeInTheDocument(), SETTLED);
    expect(screen.getByText('@operator')).toBeInTheDocument();
    expect(currentPath()).toBe('/users?q=FLEET');
    await user.clear(search);
    await user.type(search, 'admin@');
    await waitFor(() => expect(screen.queryByText('@operator')).not.toBeInTheDocument(), SETTLED);
    expect(screen.getByText('@admin')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'nobody');
    expect(await screen.findByText('No users found', {}, SETTLED)).toBeInTheDocument();
  });

  it('sorts by a column header both ways, and a link with the view reproduces it', async () => {
    const { user, unmount } = await openUsers();
    const usernames = () =>
      within(screen.getByRole('table', { name: 'Users' }))
        .queryAllByText(/^@/)
        .map((element) => element.textContent);
    await user.click(screen.getByRole('button', { name: 'User' }));
    await waitFor(() => expect(usernames()[0]).toBe('@admin'), SETTLED);
    await user.click(screen.getByRole('button', { name: 'User' }));
    await waitFor(() => expect(usernames()[0]).toBe('@operator'), SETTLED);
    const link = currentPath();
    expect(link).toBe('/users?sort=username&order=desc');
    unmount();
    renderUsersPage('admin', link);
    await screen.findByText('@operator');
    expect(usernames()).toEqual(['@operator', '@admin']);
  });

  it('reports "Failed to fetch users" in a dismissible banner', async () => {
    server.use(
      http.get('/api/auth/users', () =>
        HttpResponse.json({ success: false, detail: 'boom', error: 'boom' }, { status: 500 }),
      ),
    );
    const { user } = renderUsersPage();
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Failed to fetch users');
    await user.click(within(banner).getByRole('button', { name: /close/i }));
    expect(screen.queryByText('Failed to fetch users')).not.toBeInTheDocument();
  });

  it('loads the list again on Refresh', async () => {
    let calls = 0;
    server.events.on('request:start', ({ request }) => {
      if (request.method === 'GET' && new URL(request.url).pathname === '/api/auth/users') calls += 1;
    });
    const { user } = await openUsers();
    expect(calls).toBe(1);
    store.users[1].full_name = 'Renamed Operator';
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('Renamed Operator')).toBeInTheDocument();
    expect(calls).toBe(2);
    server.events.removeAllListeners();
  });

  it('is not open to operators who are not superusers', async () => {
    renderUsersPage('operator');
    expect(await screen.findByRole('heading', { name: 'Not allowed' })).toBeInTheDocument();
    expect(screen.getByText(/available to superusers only/)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('activating and deactivating', { timeout: scaled(15_000) }, () => {
  it('sends only is_active flipped and shows the new status', async () => {
    const bodies = captureBodies('PUT', /^\/api\/auth\/users\//);
    const { user } = await openUsers();
    await user.click(row('operator').getByRole('button', { name: 'Deactivate operator' }));
    // Deactivation asks first; nothing is sent until it is confirmed.
    const confirm = within(await screen.findByRole('dialog', { name: 'Deactivate user?' }));
    expect(bodies).toEqual([]);
    await user.click(confirm.getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(row('operator').getByText('Inactive')).toBeInTheDocument());
    expect(bodies).toEqual([{ is_active: false }]);
    expect(await screen.findByText('User operator deactivated')).toBeInTheDocument();
    // Found once the closing dialog has handed the page back (until then the page is aria-hidden).
    await user.click(await row('operator').findByRole('button', { name: 'Activate operator' }));
    await waitFor(() => expect(row('operator').getByText('Active')).toBeInTheDocument());
    expect(bodies).toEqual([{ is_active: false }, { is_active: true }]);
    expect(await screen.findByText('User operator activated')).toBeInTheDocument();
  });

  it('reports "Failed to update user status"', async () => {
    server.use(
      http.put('/api/auth/users/:id', () =>
        HttpResponse.json({ success: false, detail: 'nope', error: 'nope' }, { status: 409 }),
      ),
    );
    const { user } = await openUsers();
    await user.click(row('operator').getByRole('button', { name: 'Deactivate operator' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Deactivate user?' })).getByRole('button', {
        name: 'Deactivate',
      }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update user status');
  });

  it('disables the toggle on your own account', async () => {
    await openUsers();
    expect(row('admin').getByRole('button', { name: 'Deactivate admin' })).toBeDisabled();
  });
});
