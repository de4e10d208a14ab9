import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { FIRST_RUN_PASSWORD_CHANGED, FIRST_RUN_UNREACHABLE } from '../../../../src/features/login/FirstRunHint';
import { renderApp } from '../../support/render';
import { server } from '../../support/server';

const HINT =
  "First sign-in? Sign in as admin (or the name in ADMIN_USERNAME, if it was set) with the password in the file initial-admin-password in the server's data folder (./data unless DATA_DIR is set).";

function answerFirstRun(exists: boolean) {
  const asked = { count: 0 };
  server.use(
    http.get('/api/auth/first-run', () => {
      asked.count += 1;
      return HttpResponse.json({ success: true, data: { initial_password_file: exists } });
    }),
  );
  return asked;
}

async function openLogin() {
  const rendered = await renderApp('/login');
  await screen.findByRole('button', { name: 'Login' });
  return rendered;
}

describe('Login page first-run hint', () => {
  it('asks nothing until the operator does, then says where the first-run password is', async () => {
    const asked = answerFirstRun(true);
    const { user } = await openLogin();
    expect(asked.count).toBe(0);
    await user.click(screen.getByRole('button', { name: 'First sign-in?' }));
    expect(await screen.findByText(/in the server's data folder/)).toHaveTextContent(HINT);
    expect(asked.count).toBe(1);
    expect(screen.queryByRole('button', { name: 'First sign-in?' })).not.toBeInTheDocument();
  });

  it('says the generated password was changed once the file is gone', async () => {
    answerFirstRun(false);
    const { user } = await openLogin();
    await user.click(screen.getByRole('button', { name: 'First sign-in?' }));
    expect(await screen.findByText(FIRST_RUN_PASSWORD_CHANGED)).toBeInTheDocument();
    expect(screen.queryByText(/in the server's data folder/)).not.toBeInTheDocument();
  });

  it('says when the server does not answer, and can be asked again', async () => {
    server.use(http.get('/api/auth/first-run', () => HttpResponse.error()));
    const { user } = await openLogin();
    await user.click(screen.getByRole('button', { name: 'First sign-in?' }));
    expect(await screen.findByText(FIRST_RUN_UNREACHABLE)).toBeInTheDocument();
    answerFirstRun(true);
    await user.click(screen.getByRole('button', { name: 'First sign-in?' }));
    expect(await screen.findByText(/in the server's data folder/)).toHaveTextContent(HINT);
  });

  it('points to the file by itself after a refused sign-in while the file exists', async () => {
    answerFirstRun(true);
    const { user } = await openLogin();
    await user.type(screen.getByLabelText(/Username/), 'admin');
    await user.type(screen.getByLabelText(/Password/), 'admin');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect username or password');
    expect(await screen.findByText(/in the server's data folder/)).toHaveTextContent(HINT);
  });

  it('adds nothing to a refused sign-in once the file is gone', async () => {
    const asked = answerFirstRun(false);
    const { user } = await openLogin();
    await user.type(screen.getByLabelText(/Username/), 'admin');
    await user.type(screen.getByLabelText(/Password/), 'admin');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect username or password');
    await vi.waitFor(() => expect(asked.count).toBe(1));
    expect(screen.queryByText(FIRST_RUN_PASSWORD_CHANGED)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'First sign-in?' })).toBeInTheDocument();
  });
});
