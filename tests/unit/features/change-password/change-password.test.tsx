import { screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { MOCK_ADMIN, store } from '../../../../src/mocks/store';
import { currentPath, renderApp } from '../../support/render';
import { server } from '../../support/server';
import { scaled } from '../../../../testkit/time-scale';

async function open() {
  const rendered = await renderApp('/change-password', { as: 'admin' });
  await screen.findByRole('heading', { name: 'Change Password', level: 1 });
  const field = (label: string) => screen.getByLabelText(label, { selector: 'input' });
  // Pasting is one input event per field: typing character by character is slow in the test DOM.
  const paste = async (label: string, value: string) => {
    await rendered.user.click(field(label));
    await rendered.user.paste(value);
  };
  const fill = async (current: string, next: string, confirm: string) => {
    if (current) await paste('Current Password', current);
    if (next) await paste('New Password', next);
    if (confirm) await paste('Confirm New Password', confirm);
  };
  const submit = () => rendered.user.click(screen.getByRole('button', { name: 'Change Password' }));
  return { ...rendered, field, fill, paste, submit };
}

describe('Change Password page', { timeout: scaled(15_000) }, () => {
  it('shows the three fields with show/hide toggles, the checklist, tips and buttons', async () => {
    const { field, user } = await open();
    for (const label of ['Current Password', 'New Password', 'Confirm New Password']) {
      expect(field(label)).toHaveAttribute('type', 'password');
    }
    await user.click(screen.getByRole('button', { name: 'Show new password' }));
    expect(field('New Password')).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide new password' }));
    expect(field('New Password')).toHaveAttribute('type', 'password');

    const items = within(screen.getByRole('list', { name: 'Password requirements' })).getAllByRole('listitem');
    const labels = [
      'At least 8 characters',
      'One uppercase letter',
      'One lowercase letter',
      'One number',
      'One special character',
    ];
    expect(items).toHaveLength(labels.length);
    labels.forEach((label, index) => expect(items[index]).toHaveTextContent(label));
    expect(screen.getByText('Security Tips')).toBeInTheDocument();
    expect(screen.getByText(/use a unique password/i)).toBeInTheDocument();
    expect(screen.getByText(/avoid common words or personal information/i)).toBeInTheDocument();
    expect(screen.getByText(/password manager/i)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', '/profile');
  });

  it('shows the strength meter once a new password is typed, and ticks the checklist live', async () => {
    const { paste } = await open();
    expect(screen.queryByTestId('strength-meter')).not.toBeInTheDocument();
    await paste('New Password', 'abcdefgh');
    expect(screen.getByRole('progressbar', { name: 'Password strength: Weak' })).toHaveAttribute('aria-valuenow', '20');
    const met = () =>
      within(screen.getByRole('list', { name: 'Password requirements' }))
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('data-met'));
    expect(met()).toEqual(['true', 'false', 'true', 'false', 'false']);
    await paste('New Password', 'A1');
    expect(screen.getByRole('progressbar', { name: 'Password strength: Fair' })).toHaveAttribute('aria-valuenow', '60');
    await paste('New Password', '!');
    expect(screen.getByRole('progressbar', { name: 'Password strength: Good' })).toHaveAttribute('aria-valuenow', '80');
    await paste('New Password', 'x');
    expect(screen.getByRole('progressbar', { name: 'Password strength: Strong' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
    expect(met()).toEqual(['true', 'true', 'true', 'true', 'true']);
  });

  it.each([
    ['', '', '', 'All fields are required'],
    ['old-password', 'new-password', '', 'All fields are required'],
    ['old-password', 'new-password-1', 'new-password-2', 'New passwords do not match'],
    ['old-password', 'short', 'short', 'Password must be at least 8 characters long'],
    ['same-password', 'same-password', 'same-password', 'New password must be different from current password'],
  ])('refuses %j / %j / %j with "%s" before calling the server', async (current, next, confirm, message) => {
    let called = false;
    server.use(http.post('/api/auth/change-password', () => ((called = true), HttpResponse.json({}))));
    const { fill, submit } = await open();
    await fill(current, next, confirm);
    await submit();
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(called).toBe(false);
  });

  it('marks a differing confirmation inline', async () => {
    const { field, user, paste } = await open();
    await paste('New Password', 'Password-1');
    await paste('Confirm New Password', 'Password-2');
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    await user.clear(field('Confirm New Password'));
    await paste('Confirm New Password', 'Password-1');
    expect(screen.queryByText('Passwords do not match')).not.toBeInTheDocument();
  });

  it("shows the server's detail", async () => {
    const { fill, submit } = await open();
    await fill('not-my-password', 'New-password-1', 'New-password-1');
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Current password is incorrect');
  });

  it('falls back to "Failed to change password" when the error has no detail', async () => {
    server.use(http.post('/api/auth/change-password', () => HttpResponse.json({}, { status: 500 })));
    const { fill, submit } = await open();
    await fill(MOCK_ADMIN.password, 'New-password-1', 'New-password-1');
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to change password$/);
  });

  it('reads "Password change failed" when the answer does not confirm the change', async () => {
    server.use(http.post('/api/auth/change-password', () => HttpResponse.json({ success: false })));
    const { fill, submit } = await open();
    await fill(MOCK_ADMIN.password, 'New-password-1', 'New-password-1');
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Password change failed$/);
  });

  it('falls back to "An error occurred" when there is no answer', async () => {
    server.use(http.post('/api/auth/change-password', () => HttpResponse.error()));
    const { fill, submit } = await open();
    await fill(MOCK_ADMIN.password, 'New-password-1', 'New-password-1');
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(/^An error occurred$/);
  });

  it(
    'changes the password: busy label, success message, cleared and disabled form, profile after 2 s',
    async () => {
      let body: unknown;
      server.use(
        http.post('/api/auth/change-password', async ({ request }) => {
          body = await request.json();
          await delay(200);
          return HttpResponse.json({ success: true, message: 'Password changed successfully' });
        }),
      );
      const { fill, submit, field } = await open();
      await fill(MOCK_ADMIN.password, 'New-password-1', 'New-password-1');
      await submit();
      expect(screen.getByRole('button', { name: 'Changing Password...' })).toBeDisabled();
      expect(field('Current Password')).toBeDisabled();

      expect(await screen.findByText('Password changed successfully! Redirecting to profile...')).toBeInTheDocument();
      const successAt = Date.now();
      expect(body).toEqual({ current_password: MOCK_ADMIN.password, new_password: 'New-password-1' });
      for (const label of ['Current Password', 'New Password', 'Confirm New Password']) {
        expect(field(label)).toHaveValue('');
        expect(field(label)).toBeDisabled();
      }
      expect(screen.getByRole('button', { name: 'Change Password' })).toBeDisabled();
      expect(currentPath()).toBe('/change-password');

      await waitFor(() => expect(currentPath()).toBe('/profile'), { timeout: scaled(8000) });
      expect(Date.now() - successAt).toBeGreaterThanOrEqual(1900);
    },
    scaled(15_000),
  );

  it('really changes it in the mock store', async () => {
    const { fill, submit } = await open();
    await fill(MOCK_ADMIN.password, 'New-password-1', 'New-password-1');
    await submit();
    await screen.findByText('Password changed successfully! Redirecting to profile...');
    expect(store.users.find((u) => u.username === 'admin')?.password).toBe('New-password-1');
  });

  it('shows the profile as the server has it after the change: its Last Updated is new', async () => {
    const admin = store.users.find((u) => u.username === 'admin');
    Object.assign(admin ?? {}, { updated_at: '2020-02-09T17:04:05Z' });
    const { fill, submit } = await open();
    await fill(MOCK_ADMIN.password, 'New-password-1', 'New-password-1');
    await submit();
    await waitFor(() => expect(currentPath()).toBe('/profile'), { timeout: scaled(8000) });
    const lastUpdated = await screen.findByText('Last Updated');
    expect(lastUpdated.nextSibling).not.toHaveTextContent('2020');
    expect(lastUpdated.nextSibling).toHaveTextContent(String(new Date(admin?.updated_at ?? 0).getFullYear()));
  });

  it('says so when the account cannot be read again after the change', async () => {
    const { fill, submit } = await open();
    // Signed in already: only the read after the change fails.
    server.use(
      http.get('/api/auth/verify-token', () => HttpResponse.json({ detail: 'Database unavailable' }, { status: 503 })),
    );
    await fill(MOCK_ADMIN.password, 'New-password-1', 'New-password-1');
    await submit();
    expect(await screen.findByText('Database unavailable')).toBeInTheDocument();
  });

  it('Cancel goes back to the profile', async () => {
    const { user } = await open();
    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    await waitFor(() => expect(currentPath()).toBe('/profile'));
  });
});
