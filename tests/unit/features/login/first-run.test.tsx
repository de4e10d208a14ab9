import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../support/render';
import { server } from '../../support/server';

const firstRun = (exists: boolean) =>
  server.use(http.get('/api/auth/first-run', () => HttpResponse.json({ success: true, data: { initial_password_file: exists } })));

describe('Login page first-run hint', () => {
  it('says where the first-run password is while the server keeps its file', async () => {
    firstRun(true);
    renderApp('/login');
    const hint = await screen.findByText(/First sign-in\?/);
    expect(hint).toHaveTextContent("First sign-in? The superuser's password is in the file initial-admin-password in the server's data folder (./data unless DATA_DIR is set).");
  });

  it('says nothing once the file is gone', async () => {
    firstRun(false);
    renderApp('/login');
    await screen.findByRole('button', { name: 'Login' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByText(/First sign-in\?/)).not.toBeInTheDocument();
    expect(screen.getByText('Use the credentials created during setup.')).toBeInTheDocument();
  });
});
