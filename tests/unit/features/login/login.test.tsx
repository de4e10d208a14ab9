import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { MOCK_ADMIN } from '../../../../src/mocks/store';
import { currentPath, renderApp } from '../../support/render';
import { server } from '../../support/server';

async function openLogin(path = '/login') {
  const rendered = await renderApp(path);
  await screen.findByRole('button', { name: 'Login' });
  return rendered;
}

describe('Login page', () => {
  it('shows the username and password fields, the Login button and the setup hint', async () => {
    await openLogin();
    expect(screen.getByLabelText(/Username/)).toBeRequired();
    expect(screen.getByLabelText(/Password/)).toHaveAttribute('type', 'password');
    expect(screen.getByText('Use the credentials created during setup.')).toBeInTheDocument();
  });

  it('requires both fields and sends nothing without them', async () => {
    const { user } = await openLogin();
    let calls = 0;
    server.events.on('request:start', () => void calls++);
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.getByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Username/), 'admin');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.queryByText('Username is required')).not.toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(calls).toBe(0);
    server.events.removeAllListeners();
  });

  it("shows the server's detail when sign-in is refused", async () => {
    const { user } = await openLogin();
    await user.type(screen.getByLabelText(/Username/), 'admin');
    await user.type(screen.getByLabelText(/Password/), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect username or password');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('falls back to "Login failed" when the answer has no detail', async () => {
    server.use(http.post('/api/auth/login', () => HttpResponse.json({}, { status: 500 })));
    const { user } = await openLogin();
    await user.type(screen.getByLabelText(/Username/), 'admin');
    await user.type(screen.getByLabelText(/Password/), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Login failed$/);
  });

  it('uses the error field when detail is missing', async () => {
    server.use(
      http.post('/api/auth/login', () =>
        HttpResponse.json({ success: false, error: 'Too many failed sign-in attempts' }, { status: 429 }),
      ),
    );
    const { user } = await openLogin();
    await user.type(screen.getByLabelText(/Username/), 'admin');
    await user.type(screen.getByLabelText(/Password/), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many failed sign-in attempts');
  });

  it('reports a network failure', async () => {
    server.use(http.post('/api/auth/login', () => HttpResponse.error()));
    const { user } = await openLogin();
    await user.type(screen.getByLabelText(/Username/), 'admin');
    await user.type(screen.getByLabelText(/Password/), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Network error: Unable to connect to server');
  });

  it('signs in, keeps the token under "token" and opens the dashboard', async () => {
    const { user } = await openLogin();
    await user.type(screen.getByLabelText(/Username/), MOCK_ADMIN.username);
    await user.type(screen.getByLabelText(/Password/), MOCK_ADMIN.password);
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('navigation', { name: 'Main navigation' })).toBeInTheDocument();
    expect(currentPath()).toBe('/');
    expect(localStorage.getItem('token')).toMatch(/^mock-token-/);
  });

  it('returns to the page first asked for', async () => {
    const { user } = await renderApp('/profile');
    await screen.findByRole('button', { name: 'Login' });
    await user.type(screen.getByLabelText(/Username/), MOCK_ADMIN.username);
    await user.type(screen.getByLabelText(/Password/), MOCK_ADMIN.password);
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('heading', { name: 'My Profile', level: 1 })).toBeInTheDocument();
    expect(currentPath()).toBe('/profile');
  });

  it('disables the form while signing in', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post('/api/auth/login', async () => {
        await gate;
        return HttpResponse.json(
          { success: false, detail: 'Incorrect username or password', error: 'x' },
          { status: 401 },
        );
      }),
    );
    const { user } = await openLogin();
    await user.type(screen.getByLabelText(/Username/), 'admin');
    await user.type(screen.getByLabelText(/Password/), 'x');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.getByRole('button', { name: 'Login' })).toBeDisabled();
    expect(screen.getByLabelText(/Username/)).toBeDisabled();
    release();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled());
  });

  it('explains a session that expired', async () => {
    await openLogin('/login?reason=session_expired');
    expect(screen.getByRole('status')).toHaveTextContent('Your session has expired. Please log in again.');
  });

  it('sends a signed-in operator on to the dashboard', async () => {
    await renderApp('/login', { as: 'admin' });
    expect(await screen.findByRole('navigation', { name: 'Main navigation' })).toBeInTheDocument();
    expect(currentPath()).toBe('/');
  });
});
