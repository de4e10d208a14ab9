import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { store } from '../../../src/mocks/store';
import { currentPath, renderApp } from '../support/render';
import { narrowViewport } from '../support/viewport';
import { scaled } from '../../../testkit/time-scale';

async function openAt(path: string, as = 'admin') {
  const rendered = await renderApp(path, { as });
  await screen.findByRole('navigation', { name: 'Main navigation' });
  return rendered;
}

const topBar = () => within(screen.getByRole('banner'));

describe('shared layout', { timeout: scaled(15_000) }, () => {
  // Every path's title is covered by tests/unit/lib/page-title.test.ts; here, the pages of this folder's owner.
  it.each([
    ['/profile', 'My Profile'],
    ['/change-password', 'Change Password'],
    ['/users', 'User Management'],
  ])('titles %s "%s" in the top bar', async (path, title) => {
    await openAt(path);
    expect(topBar().getByText(title)).toBeInTheDocument();
  });

  it('lists the nav items in order, marks the current one and shows the version', async () => {
    await openAt('/profile');
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Dashboard',
      'Instances',
      'AMI Manager',
      'Config Generator',
      'Scheduling',
      'Recordings',
      'Monitoring',
      'GitHub',
      'Alarms',
      'Users',
    ]);
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/',
      '/instances',
      '/ami',
      '/config',
      '/scheduling',
      '/recordings',
      '/monitoring',
      '/github',
      '/alarms',
      '/users',
    ]);
    expect(links.filter((link) => link.getAttribute('aria-current') === 'page')).toHaveLength(0);
    expect(screen.getByText('Version 1.0.0')).toBeInTheDocument();
    expect(screen.getByText('Capture Command Center')).toBeInTheDocument();
  });

  it('lists Users to superusers only', async () => {
    await openAt('/profile', 'operator');
    const nav = within(screen.getByRole('navigation', { name: 'Main navigation' }));
    expect(nav.getByRole('link', { name: 'Alarms' })).toHaveAttribute('href', '/alarms');
    expect(nav.queryByRole('link', { name: 'Users' })).not.toBeInTheDocument();
  });

  it('offers a skip link as the first Tab stop, which moves focus to the page', async () => {
    const { user } = await openAt('/profile');
    await screen.findByRole('heading', { name: 'My Profile', level: 1 });
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
    expect(currentPath()).toBe('/profile');
  });

  it('navigates from the sidebar and marks the current item', async () => {
    const { user } = await openAt('/profile');
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    await user.click(within(nav).getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(currentPath()).toBe('/'));
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  });

  it('shows Live / Connected and the system status once the live feed welcomes the console', async () => {
    await openAt('/profile');
    expect(await topBar().findByText('Live')).toBeInTheDocument();
    expect(screen.getByText('Connected')).toBeInTheDocument();
    expect(screen.getByText('System status: Operational')).toBeInTheDocument();
  });

  it('shows Offline / Disconnected without a live feed', async () => {
    store.liveAvailable = false;
    await openAt('/profile');
    await screen.findByRole('heading', { name: 'My Profile', level: 1 });
    expect(topBar().getByText('Offline')).toBeInTheDocument();
    expect(screen.getByText('Disconnected')).toBeInTheDocument();
    expect(screen.getByText('System status: Unknown')).toBeInTheDocument();
  });

  it('opens the user menu: name, email, role label; Profile and Change Password navigate', async () => {
    const { user } = await openAt('/users');
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    const menu = within(screen.getByRole('menu'));
    // Scoped to the menu: the users table behind it may show the same name once it has loaded.
    expect(menu.getByText('System Administrator')).toBeInTheDocument();
    expect(menu.getByText('admin@example.com')).toBeInTheDocument();
    expect(menu.getByText('Admin • Superuser')).toBeInTheDocument();
    await user.click(menu.getByRole('menuitem', { name: 'Profile' }));
    await waitFor(() => expect(currentPath()).toBe('/profile'));
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    await user.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Change Password' }));
    await waitFor(() => expect(currentPath()).toBe('/change-password'));
  });

  it('labels a plain user "User" in the menu', async () => {
    const { user } = await openAt('/profile', 'operator');
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    const menu = within(screen.getByRole('menu'));
    expect(menu.getByText('Fleet Operator')).toBeInTheDocument();
    expect(menu.getByText(/^User$/)).toBeInTheDocument();
  });

  it('opens the navigation drawer from the menu button on narrow screens', async () => {
    narrowViewport();
    const { user } = await renderApp('/profile', { as: 'admin' });
    const menuButton = await screen.findByRole('button', { name: 'Open navigation' });
    // The permanent sidebar is hidden below `md`: the menu button is the way in.
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    await user.click(menuButton);
    // While the drawer is open the rest of the page is hidden from assistive technology: one nav remains.
    const drawerNav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(drawerNav.closest('[role="presentation"]')).not.toBeNull();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(document.querySelector('[role="presentation"]')).toBeNull());
  });
});
