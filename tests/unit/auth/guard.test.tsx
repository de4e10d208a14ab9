import { screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { currentPath, renderApp } from '../support/render';
import { server } from '../support/server';

describe('route guard', () => {
  it('sends a visitor without a session to /login', async () => {
    await renderApp('/profile');
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
  });

  it('shows a Loading spinner while the token is verified, then /login when it is refused', async () => {
    server.use(
      http.get('/api/auth/verify-token', async () => {
        await delay(150);
        return HttpResponse.json({ valid: false }, { status: 401 });
      }),
    );
    await renderApp('/profile', { as: 'admin' });
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
  });

  it('opens the page once the token is verified', async () => {
    await renderApp('/change-password', { as: 'admin' });
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Change Password', level: 1 })).toBeInTheDocument();
    expect(currentPath()).toBe('/change-password');
  });

  it('removes a token the server refuses and signs out', async () => {
    localStorage.setItem('token', 'stale-token');
    await renderApp('/profile');
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('treats a failed verification (no answer) the same way', async () => {
    server.use(http.get('/api/auth/verify-token', () => HttpResponse.error()));
    await renderApp('/profile', { as: 'admin' });
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('sends an unknown path to the dashboard', async () => {
    await renderApp('/no-such-page', { as: 'admin' });
    await waitFor(() => expect(currentPath()).toBe('/'));
  });

  it('signs out to /login?reason=session_expired when the server ends the session', async () => {
    const { user } = await renderApp('/users', { as: 'admin' });
    await screen.findByText('@operator');
    server.use(
      http.get('/api/auth/users', () =>
        HttpResponse.json({ success: false, detail: 'Session expired or invalid', error: 'x' }, { status: 401 }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('Your session has expired. Please log in again.')).toBeInTheDocument();
    expect(currentPath()).toBe('/login?reason=session_expired');
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('logout', () => {
  it('ends the session on the server, clears the token and goes to /login', async () => {
    let loggedOut = false;
    server.events.on('request:start', ({ request }) => {
      if (request.method === 'POST' && new URL(request.url).pathname === '/api/auth/logout') loggedOut = true;
    });
    const { user } = await renderApp('/profile', { as: 'admin' });
    await screen.findByRole('heading', { name: 'My Profile', level: 1 });
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    await user.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Logout' }));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
    expect(loggedOut).toBe(true);
    expect(localStorage.getItem('token')).toBeNull();
    server.events.removeAllListeners();
  });

  it('still signs out when the server cannot be reached', async () => {
    server.use(http.post('/api/auth/logout', () => HttpResponse.error()));
    const { user } = await renderApp('/change-password', { as: 'admin' });
    await screen.findByRole('heading', { name: 'Change Password', level: 1 });
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
  });
});
