import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { ConnectionLostBanner } from '../../../src/widgets/ConnectionLostBanner';
import { LiveIndicator } from '../../../src/layout/LiveIndicator';
import { SidebarContent } from '../../../src/layout/SidebarContent';
import { AuthContext, type AuthContextValue } from '../../../src/auth/context';
import { LiveContext, type LiveContextValue } from '../../../src/live/context';
import { store, toPublicUser } from '../../../src/mocks/store';

/** The sidebar shows what the signed-in operator may open: an operator here. */
const signedIn = (): AuthContextValue => ({
  status: 'authenticated',
  user: toPublicUser(store.users.find((user) => !user.is_superuser) ?? store.users[0]),
  signOutReason: null,
  login: vi.fn(),
  logout: vi.fn(),
  updateUser: vi.fn(),
});

function withLive(state: Partial<LiveContextValue>) {
  const value: LiveContextValue = {
    connected: false,
    gaveUp: false,
    reconnect: vi.fn(),
    known: false,
    instances: [],
    recordings: [],
    systemStatus: null,
    subscribe: () => () => undefined,
    send: () => false,
    ...state,
  };
  render(
    <AuthContext.Provider value={signedIn()}>
      <LiveContext.Provider value={value}>
        <MemoryRouter>
          <LiveIndicator />
          <ConnectionLostBanner />
          <SidebarContent />
        </MemoryRouter>
      </LiveContext.Provider>
    </AuthContext.Provider>,
  );
  return value;
}

describe('live status in the layout', () => {
  it('offers no Reconnect while the back-off is still trying', () => {
    withLive({ gaveUp: false });
    expect(screen.getByText('Offline')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reconnect' })).not.toBeInTheDocument();
  });

  it('offers Reconnect in the top bar and the banner once the attempts ran out', async () => {
    const live = withLive({ gaveUp: true });
    const buttons = await screen.findAllByRole('button', { name: 'Reconnect' });
    expect(buttons).toHaveLength(2);
    await userEvent.click(buttons[0]);
    await userEvent.click(buttons[1]);
    expect(live.reconnect).toHaveBeenCalledTimes(2);
  });

  it('says the status is unknown, not operational, while disconnected', () => {
    withLive({ connected: false, systemStatus: null });
    expect(screen.getByText('System status: Unknown')).toBeInTheDocument();
    expect(screen.getByText('Disconnected')).toBeInTheDocument();
  });

  it('shows Live and the status when connected', () => {
    withLive({ connected: true, systemStatus: 'operational' });
    expect(screen.getByText('Live')).toBeInTheDocument();
    expect(screen.getByText('System status: Operational')).toBeInTheDocument();
  });
});
