import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { store } from '../../../../src/mocks/store';
import { captureBodies, server } from '../../support/server';
import { dialog, field, openUsers, row } from './helpers';
import { fill } from '../../support/fill';
import { scaled } from '../../../../testkit/time-scale';

/** Creating a user (POST) and editing one (PUT /api/auth/users/:id). */
const USERS_PATH = /^\/api\/auth\/users/;

describe('Create New User', { timeout: scaled(20_000) }, () => {
  it('opens with the defaults of a new user', async () => {
    const { user } = await openUsers();
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    expect(screen.getByRole('dialog', { name: 'Create New User' })).toBeInTheDocument();
    for (const label of [/Username/, /Email/, /Full Name/, /^Password/]) expect(field(label)).toHaveValue('');
    expect(field(/Email/)).toHaveAttribute('type', 'email');
    expect(dialog().getByRole('combobox', { name: 'Role' })).toHaveTextContent('Admin');
    expect(dialog().getByRole('switch', { name: 'Active' })).toBeChecked();
    expect(dialog().getByRole('switch', { name: 'Superuser' })).not.toBeChecked();
    expect(dialog().getByRole('button', { name: 'Create' })).toBeDisabled();
    expect(dialog().getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });

  it('needs username, email and password', async () => {
    const { user } = await openUsers();
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    await user.type(field(/Username/), 'amina');
    await fill(user, field(/Email/), 'amina@example.com');
    expect(dialog().getByRole('button', { name: 'Create' })).toBeDisabled();
    await fill(user, field(/^Password/), 'Amina-pass-1');
    expect(dialog().getByRole('button', { name: 'Create' })).toBeEnabled();
  });

  it('creates the user with every field, closes and shows it in the list', async () => {
    const bodies = captureBodies('POST', USERS_PATH);
    const { user } = await openUsers();
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    await user.type(field(/Username/), 'amina');
    await fill(user, field(/Email/), 'amina@example.com');
    await fill(user, field(/Full Name/), 'Amina Yusuf');
    await fill(user, field(/^Password/), 'Amina-pass-1');
    await user.click(dialog().getByRole('combobox', { name: 'Role' }));
    await user.click(screen.getByRole('option', { name: 'User' }));
    await user.click(dialog().getByRole('switch', { name: 'Superuser' }));
    await user.click(dialog().getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('@amina')).toBeInTheDocument();
    expect(await screen.findByText('User amina created')).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        username: 'amina',
        email: 'amina@example.com',
        full_name: 'Amina Yusuf',
        password: 'Amina-pass-1',
        role: 'user',
        is_active: true,
        is_superuser: true,
      },
    ]);
    server.events.removeAllListeners();
  });

  it("keeps the dialog open with the server's detail when saving fails", async () => {
    const { user } = await openUsers();
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    await fill(user, field(/Username/), 'operator');
    await fill(user, field(/Email/), 'x@example.com');
    await fill(user, field(/^Password/), 'Another-pass-1');
    await user.click(dialog().getByRole('button', { name: 'Create' }));
    expect(await dialog().findByRole('alert')).toHaveTextContent('Username operator is already taken');
    expect(screen.getByRole('dialog', { name: 'Create New User' })).toBeInTheDocument();
  });

  it('falls back to "Failed to save user"', async () => {
    server.use(http.post('/api/auth/users', () => HttpResponse.json({}, { status: 500 })));
    const { user } = await openUsers();
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    await user.type(field(/Username/), 'amina');
    await fill(user, field(/Email/), 'amina@example.com');
    await fill(user, field(/^Password/), 'Amina-pass-1');
    await user.click(dialog().getByRole('button', { name: 'Create' }));
    expect(await dialog().findByRole('alert')).toHaveTextContent(/^Failed to save user$/);
  });

  it('Cancel closes without saving', async () => {
    const { user } = await openUsers();
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    await user.type(field(/Username/), 'amina');
    await user.click(dialog().getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(store.users).toHaveLength(2);
  });
});

describe('Edit User', { timeout: scaled(20_000) }, () => {
  it('opens filled in, with a read-only username and an optional new password', async () => {
    const { user } = await openUsers();
    await user.click(row('operator').getByRole('button', { name: 'Edit User operator' }));
    expect(screen.getByRole('dialog', { name: 'Edit User' })).toBeInTheDocument();
    expect(field(/Username/)).toHaveValue('operator');
    expect(field(/Username/)).toHaveAttribute('readonly');
    expect(field(/Email/)).toHaveValue('operator@example.com');
    expect(field(/Full Name/)).toHaveValue('Fleet Operator');
    expect(field('New Password (leave blank to keep current)')).toHaveValue('');
    expect(dialog().getByRole('combobox', { name: 'Role' })).toHaveTextContent('User');
    expect(dialog().getByRole('button', { name: 'Update' })).toBeEnabled();
  });

  it('sends the edit form without the password when it is left blank', async () => {
    const bodies = captureBodies('PUT', USERS_PATH);
    const { user } = await openUsers();
    await user.click(row('operator').getByRole('button', { name: 'Edit User operator' }));
    await user.clear(field(/Full Name/));
    await fill(user, field(/Full Name/), 'Night Operator');
    await user.click(dialog().getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Night Operator')).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        email: 'operator@example.com',
        full_name: 'Night Operator',
        role: 'user',
        is_active: true,
        is_superuser: false,
      },
    ]);
    server.events.removeAllListeners();
  });

  it('sends the password when one is typed', async () => {
    const bodies = captureBodies('PUT', USERS_PATH);
    const { user } = await openUsers();
    await user.click(row('operator').getByRole('button', { name: 'Edit User operator' }));
    await fill(user, field('New Password (leave blank to keep current)'), 'Fresh-pass-1');
    await user.click(dialog().getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([expect.objectContaining({ password: 'Fresh-pass-1' })]);
    expect(store.users[1].password).toBe('Fresh-pass-1');
    server.events.removeAllListeners();
  });

  it('refuses to deactivate your own account', async () => {
    const { user } = await openUsers();
    await user.click(row('admin').getByRole('button', { name: 'Edit User admin' }));
    await user.click(dialog().getByRole('switch', { name: 'Active' }));
    await user.click(dialog().getByRole('button', { name: 'Update' }));
    expect(await dialog().findByRole('alert')).toHaveTextContent('Cannot deactivate your own account');
    expect(store.users[0].is_active).toBe(true);
  });
});
