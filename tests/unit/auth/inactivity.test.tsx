import { act, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useInactivity } from '../../../src/auth/useInactivity';
import { currentPath, renderApp } from '../support/render';
import { scaled } from '../../../testkit/time-scale';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('useInactivity', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const setup = (onExpire = vi.fn()) => ({ onExpire, ...renderHook(() => useInactivity({ onExpire })) });

  it('checks every 60 s and warns only in the last 5 minutes', async () => {
    const { result } = setup();
    act(() => void vi.advanceTimersByTime(24 * HOUR - 6 * MINUTE));
    expect(result.current.warning).toBe(false);
    act(() => void vi.advanceTimersByTime(MINUTE));
    expect(result.current.warning).toBe(true);
    expect(result.current.remainingMs).toBe(5 * MINUTE);
  });

  it('logs out at 24 h without activity', async () => {
    const { onExpire } = setup();
    act(() => void vi.advanceTimersByTime(24 * HOUR - 1000));
    expect(onExpire).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(1000));
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it.each(['mousemove', 'mousedown', 'keydown', 'scroll', 'touchstart'])('counts %s as activity', async (type) => {
    const { result, onExpire } = setup();
    act(() => void vi.advanceTimersByTime(20 * HOUR));
    fireEvent(window, new Event(type));
    act(() => void vi.advanceTimersByTime(20 * HOUR));
    expect(result.current.warning).toBe(false);
    expect(onExpire).not.toHaveBeenCalled();
  });

  it('ignores stray activity while warning: only extend resets the timer', async () => {
    const { result, onExpire } = setup();
    act(() => void vi.advanceTimersByTime(24 * HOUR - 2 * MINUTE));
    expect(result.current.warning).toBe(true);
    fireEvent.mouseMove(window);
    act(() => void vi.advanceTimersByTime(MINUTE));
    expect(result.current.warning).toBe(true);
    act(() => result.current.extend());
    expect(result.current.warning).toBe(false);
    act(() => void vi.advanceTimersByTime(23 * HOUR));
    expect(onExpire).not.toHaveBeenCalled();
    expect(result.current.warning).toBe(false);
  });

  it('counts down every second while warning', async () => {
    const { result } = setup();
    act(() => void vi.advanceTimersByTime(24 * HOUR - 5 * MINUTE));
    expect(result.current.warning).toBe(true);
    act(() => void vi.advanceTimersByTime(3000));
    expect(result.current.remainingMs).toBe(5 * MINUTE - 3000);
  });
});

describe('session timeout in the console', () => {
  // The whole console is mounted: advancing its timers through 24 h would also run a day of polling
  // (thousands of requests and renders). The clock jumps instead, and one inactivity check runs.
  const idleFor = async (ms: number) => {
    vi.setSystemTime(Date.now() + ms - MINUTE);
    await act(() => vi.advanceTimersByTimeAsync(MINUTE));
  };

  it(
    'warns, extends on request, and finally logs out to /login?reason=session_expired',
    async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      const { user } = await renderApp('/profile', {
        as: 'admin',
        userOptions: { advanceTimers: vi.advanceTimersByTime },
      });
      await screen.findByRole('heading', { name: 'My Profile', level: 1 });

      await idleFor(24 * HOUR - 4 * MINUTE);
      const dialog = await screen.findByRole('dialog', { name: 'Session expiring soon' });
      expect(dialog).toHaveTextContent(/logged out in [0-4]:\d\d/);

      await user.click(screen.getByRole('button', { name: 'Extend Session' }));
      await waitFor(() =>
        expect(screen.queryByRole('dialog', { name: 'Session expiring soon' })).not.toBeInTheDocument(),
      );

      await idleFor(24 * HOUR + MINUTE);
      expect(await screen.findByText('Your session has expired. Please log in again.')).toBeInTheDocument();
      expect(currentPath()).toBe('/login?reason=session_expired');
      expect(localStorage.getItem('token')).toBeNull();
    },
    scaled(30_000),
  );

  it(
    'logs out from the warning at once',
    async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      const { user } = await renderApp('/change-password', {
        as: 'admin',
        userOptions: { advanceTimers: vi.advanceTimersByTime },
      });
      await screen.findByRole('heading', { name: 'Change Password', level: 1 });
      await idleFor(24 * HOUR - 3 * MINUTE);
      const dialog = await screen.findByRole('dialog', { name: 'Session expiring soon' });
      await user.click(within(dialog).getByRole('button', { name: 'Logout' }));
      await waitFor(() => expect(currentPath()).toBe('/login'));
    },
    scaled(30_000),
  );
});
