import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiToken,
  E2E_ADMIN,
  launchBrowser,
  screenshot,
  screenshotOnceDialogsShown,
  SCREENSHOT_DIR,
  signIn,
  startServer,
  type RunningServer,
} from './support';
import { scaled } from '../../testkit/time-scale';

/*
 * The accounts part in the browser, against the real server: the sign-in guard, the superuser's profile,
 * changing the password (the new one works, the old one is refused), User Management (create, search,
 * deactivate; a deactivated user cannot sign in) and the refusal a non-superuser sees on /users.
 * The server allows 5 failed sign-ins per username per 5 minutes: this journey fails only twice.
 */

const NEW_ADMIN_PASSWORD = 'Changed-e2e-Pass-2!';
const LOGIN_FAILED = 'Incorrect username or password';
/** What the server gives the superuser it creates from ADMIN_USERNAME and ADMIN_PASSWORD. */
const ADMIN_FULL_NAME = 'Administrator';
const ADMIN_EMAIL = `${E2E_ADMIN.username}@localhost.localdomain`;

const MEMBER = {
  username: 'nadia.k',
  email: 'nadia@example.com',
  fullName: 'Nadia Karim',
  password: 'Nadia-e2e-pass-1',
};
const OPERATOR = {
  username: 'omar.ops',
  email: 'omar@example.com',
  fullName: 'Omar Operator',
  password: 'Omar-e2e-pass-1',
};

/** Fills the login form of the page as it stands and sends it (no navigation, unlike signIn). */
async function submitLogin(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel(/^Username\s*\*?$/).fill(username);
  await page.getByLabel(/^Password\s*\*?$/).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/** A sign-in the server refuses: its message shows and the page stays on /login. */
async function expectRefusedSignIn(
  page: Page,
  baseUrl: string,
  username: string,
  password: string,
  status = 401,
  message = LOGIN_FAILED,
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  const refusals = page.waitForResponse((response) => response.url().endsWith('/api/auth/login'));
  await submitLogin(page, username, password);
  expect((await refusals).status()).toBe(status);
  await page.getByRole('alert').filter({ hasText: message }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/login');
  // The form is usable again for the next attempt.
  expect(await page.getByRole('button', { name: 'Login', exact: true }).isEnabled()).toBe(true);
}

async function openAccountMenu(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  return menu;
}

async function signOut(page: Page): Promise<void> {
  const menu = await openAccountMenu(page);
  await menu.getByRole('menuitem', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/login');
  await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
}

describe('accounts in the browser: sign-in, profile, password, user management', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const main = () => page.getByRole('main');
  const heading = (name: string) => page.getByRole('heading', { name, level: 1 });
  const dialog = () => page.getByRole('dialog');
  const userRow = (username: string) => page.getByRole('row').filter({ hasText: `@${username}` });

  it('sends a signed-out deep link to /users to the login page', async () => {
    await page.goto(`${server.baseUrl}/users`);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('heading', { name: 'Capture Command Center' }).waitFor();
    await page.getByText('Use the credentials created during setup.').waitFor();
    expect(await page.getByRole('heading', { name: 'User Management' }).count()).toBe(0);
    await screenshot(page, 'accounts-login');
  });

  it('signs the superuser in with the setup credentials and shows the Dashboard', async () => {
    // A fresh history entry: reloading /login would keep the way back to /users (checked at the end).
    await page.goto('about:blank');
    await signIn(page, server.baseUrl, E2E_ADMIN.username, E2E_ADMIN.password);
    expect(new URL(page.url()).pathname).toBe('/');
    await heading('Dashboard').waitFor();
    await main().getByText('Running Instances').waitFor();
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dashboard' }).waitFor();
    await screenshot(page, 'accounts-dashboard');
  });

  it('at 820 px the sidebar is a temporary drawer behind the menu button', async () => {
    await page.setViewportSize({ width: 820, height: 1180 });
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect.poll(() => nav.filter({ visible: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await nav.filter({ visible: true }).getByRole('link', { name: 'Monitoring' }).waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.MuiDrawer-modal .MuiDrawer-paper')].every(
        (el) => getComputedStyle(el).transform === 'none',
      ),
    );
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'accounts-drawer-820.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => nav.filter({ visible: true }).count()).toBe(0);
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect.poll(() => page.getByRole('button', { name: 'Open navigation' }).isVisible()).toBe(false);
  });

  it('opens My Profile from the avatar menu', async () => {
    const menu = await openAccountMenu(page);
    await menu.getByText(ADMIN_FULL_NAME, { exact: true }).waitFor();
    await menu.getByText(ADMIN_EMAIL, { exact: true }).waitFor();
    await menu.getByText('Admin • Superuser', { exact: true }).waitFor();
    await menu.getByRole('menuitem', { name: 'Change Password' }).waitFor();
    await menu.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL((url) => url.pathname === '/profile');

    await heading('My Profile').waitFor();
    await main().getByText('View and manage your account information').waitFor();
    await main().getByRole('heading', { name: ADMIN_FULL_NAME, level: 2 }).waitFor();
    await main().getByText(`@${E2E_ADMIN.username}`, { exact: true }).waitFor();
    for (const chip of ['Admin', 'Superuser', 'Active', 'Superuser Privileges']) {
      await main().getByText(chip, { exact: true }).waitFor();
    }
    const detail = (label: string) => main().getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]');
    expect(await detail('Username').textContent()).toBe(E2E_ADMIN.username);
    expect(await detail('Email Address').textContent()).toBe(ADMIN_EMAIL);
    expect(await detail('Full Name').textContent()).toBe(ADMIN_FULL_NAME);
    expect(await detail('Role').textContent()).toBe('AdministratorSuperuser Privileges');
    // Signed in just now: the last login has a date with seconds, not "Never".
    expect(await detail('Last Login').textContent()).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M$/);
    await main().getByText('Your password is securely hashed with Argon2.').waitFor();
    await main().getByRole('link', { name: 'Manage Users' }).waitFor();
    await main().getByRole('link', { name: 'Change Password' }).waitFor();
    await screenshot(page, 'accounts-profile');
  });

  it('changes the password: strength meter, success message, back to the profile after 2 s', async () => {
    await main().getByRole('link', { name: 'Change Password' }).click();
    await page.waitForURL((url) => url.pathname === '/change-password');
    await heading('Change Password').waitFor();
    const current = page.getByLabel('Current Password', { exact: true });
    const fresh = page.getByLabel('New Password', { exact: true });
    const confirm = page.getByLabel('Confirm New Password', { exact: true });
    expect(await page.getByTestId('strength-meter').count()).toBe(0);

    await current.fill(E2E_ADMIN.password);
    await fresh.fill(NEW_ADMIN_PASSWORD);
    await page.getByTestId('strength-meter').getByText('Password strength').waitFor();
    await page.getByRole('progressbar', { name: /^Password strength: / }).waitFor();
    await confirm.fill(`${NEW_ADMIN_PASSWORD}x`);
    await page.getByText('Passwords do not match', { exact: true }).waitFor();
    await confirm.fill(NEW_ADMIN_PASSWORD);
    await page.getByText('Passwords do not match', { exact: true }).waitFor({ state: 'detached' });
    await main().getByText('Password Requirements').waitFor();
    await screenshot(page, 'accounts-change-password');

    await page.getByRole('button', { name: 'Change Password', exact: true }).click();
    await page.getByText('Password changed successfully! Redirecting to profile...').waitFor();
    const shownAt = Date.now();
    expect(await current.inputValue()).toBe('');
    expect(await fresh.inputValue()).toBe('');
    expect(await confirm.inputValue()).toBe('');
    expect(await current.isDisabled()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/change-password');
    await page.waitForURL((url) => url.pathname === '/profile', { timeout: scaled(10_000) });
    // The redirect waits for the 2 s delay (with slack for the time the message took to be seen).
    expect(Date.now() - shownAt).toBeGreaterThan(1000);
    await heading('My Profile').waitFor();
  });

  it('signs out; the new password signs in and the old one is refused', async () => {
    await signOut(page);
    await expectRefusedSignIn(page, server.baseUrl, E2E_ADMIN.username, E2E_ADMIN.password);
    await screenshot(page, 'accounts-login-refused');
    await signIn(page, server.baseUrl, E2E_ADMIN.username, NEW_ADMIN_PASSWORD);
    await heading('Dashboard').waitFor();
  });

  it('creates a user with the Create User dialog and finds them with the search box', async () => {
    await page.goto(`${server.baseUrl}/users`);
    await heading('User Management').waitFor();
    await main().getByText('Manage user accounts and permissions').waitFor();
    await userRow(E2E_ADMIN.username).waitFor();
    // Your own status cannot be changed.
    expect(
      await userRow(E2E_ADMIN.username)
        .getByRole('button', { name: `Deactivate ${E2E_ADMIN.username}` })
        .isDisabled(),
    ).toBe(true);

    await page.getByRole('button', { name: 'Create User' }).click();
    await dialog().getByRole('heading', { name: 'Create New User' }).waitFor();
    const create = dialog().getByRole('button', { name: 'Create', exact: true });
    expect(await create.isDisabled()).toBe(true);
    await dialog()
      .getByLabel(/^Username/)
      .fill(MEMBER.username);
    await dialog()
      .getByLabel(/^Email/)
      .fill(MEMBER.email);
    await dialog().getByLabel('Full Name').fill(MEMBER.fullName);
    await dialog()
      .getByLabel(/^Password/)
      .fill(MEMBER.password);
    await dialog().getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'User', exact: true }).click();
    // The role menu has faded out (its list leaves the accessibility tree before its paper leaves the page).
    await page.locator('.MuiPopover-root').waitFor({ state: 'detached' });
    await expect.poll(() => dialog().getByRole('combobox', { name: 'Role' }).textContent()).toBe('User');
    expect(await dialog().getByLabel('Active').isChecked()).toBe(true);
    expect(await dialog().getByLabel('Superuser').isChecked()).toBe(false);
    expect(await create.isEnabled()).toBe(true);
    await screenshotOnceDialogsShown(page, 'accounts-users-create-dialog');

    await create.click();
    await dialog().waitFor({ state: 'detached' });
    const row = userRow(MEMBER.username);
    await row.getByText(MEMBER.fullName).waitFor();
    await row.getByText(MEMBER.email).waitFor();
    await row.getByText('Active', { exact: true }).waitFor();
    await row.getByText('Never', { exact: true }).waitFor();
    expect(await row.getByText('Super', { exact: true }).count()).toBe(0);

    const search = page.getByPlaceholder('Search users...');
    await search.fill('NADIA');
    await expect.poll(() => page.getByRole('row').count()).toBe(2); // the header and Nadia
    await row.waitFor();
    await search.fill('nobody-here');
    await main().getByText('No users found').waitFor();
    await search.fill('nadia@');
    await row.waitFor();
  });

  it('deactivates them: the Status becomes Inactive', async () => {
    const row = userRow(MEMBER.username);
    await row.getByRole('button', { name: `Deactivate ${MEMBER.username}` }).click();
    await page.getByRole('dialog', { name: 'Deactivate user?' }).getByRole('button', { name: 'Deactivate' }).click();
    await row.getByText('Inactive', { exact: true }).waitFor();
    await row.getByRole('button', { name: `Activate ${MEMBER.username}` }).waitFor();
    await page.getByPlaceholder('Search users...').fill('');
    await userRow(E2E_ADMIN.username).waitFor();
    // The change is the server's, not only the page's.
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Refresh' }).isEnabled()).toBe(true);
    await row.getByText('Inactive', { exact: true }).waitFor();
    await page.mouse.move(0, 0); // no tooltip over the table
    await screenshot(page, 'accounts-users-deactivated');
  });

  it('refuses a sign-in by the deactivated user with the server message', async () => {
    await signOut(page);
    // The right password: the user is told the account is deactivated (a wrong one would learn nothing).
    await expectRefusedSignIn(
      page,
      server.baseUrl,
      MEMBER.username,
      MEMBER.password,
      403,
      'This account is deactivated. Ask an administrator to activate it again.',
    );
  });

  it('shows a non-superuser the "Not allowed" page on /users', async () => {
    // A second, active, non-superuser user, made through the API by the superuser.
    const token = await apiToken(server.baseUrl, { username: E2E_ADMIN.username, password: NEW_ADMIN_PASSWORD });
    const created = await fetch(`${server.baseUrl}/api/auth/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        username: OPERATOR.username,
        email: OPERATOR.email,
        full_name: OPERATOR.fullName,
        password: OPERATOR.password,
        role: 'user',
        is_active: true,
        is_superuser: false,
      }),
    });
    expect(created.status).toBeLessThan(300);

    // A deep link while signed out, then back to it after signing in.
    await page.goto(`${server.baseUrl}/users`);
    await page.waitForURL((url) => url.pathname === '/login');
    await submitLogin(page, OPERATOR.username, OPERATOR.password);
    await page.waitForURL((url) => url.pathname === '/users');
    await heading('Not allowed').waitFor();
    await main()
      .getByText('You are not allowed to view this page. User management is available to superusers only.')
      .waitFor();
    expect(await page.getByRole('button', { name: 'Create User' }).count()).toBe(0);
    expect(await page.getByRole('table', { name: 'Users' }).count()).toBe(0);
    await screenshot(page, 'accounts-users-not-allowed');

    // Their own profile: a plain User, without Manage Users.
    const menu = await openAccountMenu(page);
    await menu.getByText('User', { exact: true }).waitFor();
    await menu.getByRole('menuitem', { name: 'Profile' }).click();
    await heading('My Profile').waitFor();
    await main().getByText(`@${OPERATOR.username}`, { exact: true }).waitFor();
    await main().getByRole('link', { name: 'Change Password' }).waitFor();
    expect(await main().getByText('Superuser', { exact: true }).count()).toBe(0);
    expect(await main().getByRole('link', { name: 'Manage Users' }).count()).toBe(0);

    await page.goto(`${server.baseUrl}/users`);
    await main().getByRole('link', { name: 'Back to Dashboard' }).click();
    await heading('Dashboard').waitFor();
  });
});
