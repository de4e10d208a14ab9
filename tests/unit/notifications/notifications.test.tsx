import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOTIFICATION_DURATIONS, SPEC_NOTIFICATION_DURATIONS, type Severity } from '../../../src/lib/notifications';
import { useNotify } from '../../../src/notifications/context';
import { NotificationProvider } from '../../../src/notifications/NotificationProvider';

function Trigger({ severity, duration }: { severity: Severity; duration?: number }) {
  const notify = useNotify();
  return <button onClick={() => notify.notify(`${severity} message`, severity, duration)}>notify</button>;
}

function Shortcuts() {
  const notify = useNotify();
  return (
    <>
      <button onClick={() => notify.success('saved')}>success</button>
      <button onClick={() => notify.error('broke')}>error</button>
    </>
  );
}

const show = () => fireEvent.click(screen.getByRole('button', { name: 'notify' }));
const advance = (ms: number) => act(() => void vi.advanceTimersByTime(ms));

describe('notifications', () => {
  beforeAll(async () => {
    // The snackbar stack is a lazy chunk: load it once with real timers so later renders are synchronous.
    render(
      <NotificationProvider>
        <Trigger severity="info" />
      </NotificationProvider>,
    );
    show();
    await screen.findByText('info message');
    cleanup();
  });

  afterEach(() => vi.useRealTimers());

  // The reference's durations, not the scaled ones the other component tests use (tests/unit/setup.ts).
  beforeEach(() => Object.assign(NOTIFICATION_DURATIONS, SPEC_NOTIFICATION_DURATIONS));

  it.each([
    ['success', 4000],
    ['error', 8000],
    ['warning', 6000],
    ['info', 6000],
  ] as const)('a %s notification closes itself after %i ms', (severity, ms) => {
    vi.useFakeTimers();
    render(
      <NotificationProvider>
        <Trigger severity={severity} />
      </NotificationProvider>,
    );
    show();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(`${severity} message`);
    expect(alert).toHaveAttribute('data-severity', severity);
    advance(ms - 1);
    expect(screen.getByText(`${severity} message`)).toBeInTheDocument();
    advance(1);
    expect(screen.queryByText(`${severity} message`)).not.toBeInTheDocument();
  });

  it.each([0, -1])('with duration %i it stays until closed', async (duration) => {
    vi.useFakeTimers();
    render(
      <NotificationProvider>
        <Trigger severity="error" duration={duration} />
      </NotificationProvider>,
    );
    show();
    advance(24 * 3600 * 1000);
    expect(screen.getByText('error message')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /close/i }));
    expect(screen.queryByText('error message')).not.toBeInTheDocument();
  });

  it('honours a given duration', async () => {
    vi.useFakeTimers();
    render(
      <NotificationProvider>
        <Trigger severity="success" duration={1500} />
      </NotificationProvider>,
    );
    show();
    advance(1499);
    expect(screen.getByText('success message')).toBeInTheDocument();
    advance(1);
    expect(screen.queryByText('success message')).not.toBeInTheDocument();
  });

  it('stacks several notifications, each with its own timer', async () => {
    vi.useFakeTimers();
    render(
      <NotificationProvider>
        <Shortcuts />
      </NotificationProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'success' }));
    fireEvent.click(screen.getByRole('button', { name: 'error' }));
    expect(screen.getAllByRole('alert')).toHaveLength(2);
    advance(4000);
    expect(screen.queryByText('saved')).not.toBeInTheDocument();
    expect(screen.getByText('broke')).toBeInTheDocument();
    advance(4000);
    expect(screen.queryByText('broke')).not.toBeInTheDocument();
  });

  it('closes early when the close button is pressed', async () => {
    vi.useFakeTimers();
    render(
      <NotificationProvider>
        <Trigger severity="info" />
      </NotificationProvider>,
    );
    show();
    fireEvent.click(screen.getByRole('button', { name: /close/i }));
    expect(screen.queryByText('info message')).not.toBeInTheDocument();
  });
});
