import { act, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../src/api/client';
import { useLive } from '../../../src/live/context';
import { LiveProvider } from '../../../src/live/LiveProvider';
import { FakeWebSocket, fakeSocketFactory } from '../support/fake-websocket';

let controls: ReturnType<typeof useLive> | null = null;

function Probe() {
  const live = useLive();
  useEffect(() => {
    controls = live;
  }, [live]);
  return (
    <p>
      {live.connected ? 'connected' : 'disconnected'} / {live.gaveUp ? 'gave up' : 'trying'} /{' '}
      {live.systemStatus ?? 'unknown'}
    </p>
  );
}

const welcome = { type: 'initial_data', data: { instances: [], recordings: [], system_status: 'operational' } };

function mount(onReconnected = vi.fn()) {
  render(
    <LiveProvider createSocket={fakeSocketFactory} url="ws://console.test/ws" onReconnected={onReconnected}>
      <Probe />
    </LiveProvider>,
  );
  return onReconnected;
}

/** Drops the current socket and every retry, until the back-off runs out. */
function exhaustAttempts() {
  act(() => FakeWebSocket.latest().drop());
  for (let attempt = 0; attempt < 10; attempt += 1) {
    act(() => void vi.advanceTimersByTime(30_000));
    act(() => FakeWebSocket.latest().drop());
  }
}

describe('live connection after the back-off', () => {
  beforeEach(() => {
    FakeWebSocket.reset();
    localStorage.setItem('token', 'session-token');
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  });

  it('does not claim a status while disconnected', () => {
    mount();
    act(() => FakeWebSocket.latest().open());
    act(() => FakeWebSocket.latest().receive(welcome));
    expect(screen.getByText('connected / trying / operational')).toBeInTheDocument();
    act(() => FakeWebSocket.latest().drop());
    expect(screen.getByText('disconnected / trying / unknown')).toBeInTheDocument();
  });

  it('gives up after 10 attempts, then Reconnect starts a fresh round and refreshes data once welcomed', () => {
    const onReconnected = mount();
    exhaustAttempts();
    expect(FakeWebSocket.instances).toHaveLength(11);
    expect(screen.getByText('disconnected / gave up / unknown')).toBeInTheDocument();
    act(() => controls?.reconnect());
    expect(FakeWebSocket.instances).toHaveLength(12);
    expect(screen.getByText('disconnected / trying / unknown')).toBeInTheDocument();
    // A fresh round: the first retry is 1 s away again.
    act(() => FakeWebSocket.latest().drop());
    act(() => void vi.advanceTimersByTime(1000));
    expect(FakeWebSocket.instances).toHaveLength(13);
    act(() => FakeWebSocket.latest().open());
    act(() => FakeWebSocket.latest().receive(welcome));
    expect(screen.getByText('connected / trying / operational')).toBeInTheDocument();
    expect(onReconnected).toHaveBeenCalledTimes(1);
  });

  it('does not call a first connection a reconnection', () => {
    const onReconnected = mount();
    act(() => FakeWebSocket.latest().open());
    act(() => FakeWebSocket.latest().receive(welcome));
    expect(onReconnected).not.toHaveBeenCalled();
  });

  it.each([
    ['the browser comes back online', () => window.dispatchEvent(new Event('online'))],
    [
      'the tab becomes visible',
      () => {
        Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      },
    ],
  ])('tries again at once when %s, also after giving up', (_, signal) => {
    mount();
    act(() => FakeWebSocket.latest().drop());
    act(() => void vi.advanceTimersByTime(1000));
    act(() => FakeWebSocket.latest().drop());
    // The next attempt is due in 2 s; the sign does not wait for it.
    act(() => void vi.advanceTimersByTime(1500));
    expect(FakeWebSocket.instances).toHaveLength(2);
    act(signal);
    expect(FakeWebSocket.instances).toHaveLength(3);

    exhaustAttempts();
    act(() => void vi.advanceTimersByTime(5000));
    const afterGivingUp = FakeWebSocket.instances.length;
    act(signal);
    expect(FakeWebSocket.instances).toHaveLength(afterGivingUp + 1);
  });

  it('ignores a hidden tab and signs that come too often', () => {
    mount();
    act(() => FakeWebSocket.latest().drop());
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(FakeWebSocket.instances).toHaveLength(1);
    // The socket was opened just now (mount): an "online" within 1 s waits for the back-off.
    act(() => void window.dispatchEvent(new Event('online')));
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('stays given up when an HTTP call gets an answer: only the operator or the network starts a new round', async () => {
    vi.setSystemTime(0);
    mount();
    exhaustAttempts();
    // Given up, nothing pending: the HTTP call runs on real timers (and a clock well past the last attempt).
    vi.useRealTimers();
    const before = FakeWebSocket.instances.length;
    await api.get('/api/auth/verify-token').catch(() => undefined);
    expect(FakeWebSocket.instances).toHaveLength(before);
    act(() => void window.dispatchEvent(new Event('online')));
    expect(FakeWebSocket.instances).toHaveLength(before + 1);
  });
});
