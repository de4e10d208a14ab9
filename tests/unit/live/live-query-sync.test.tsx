import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configQueryKey } from '../../../src/api/config';
import { LiveContext, type LiveContextValue } from '../../../src/live/context';
import { LiveQuerySync, MOSQUE_UPDATE_GATHER_MS } from '../../../src/live/LiveQuerySync';

afterEach(() => vi.useRealTimers());

/** A bulk action's thousands of mosque changes are one re-read of the mosque pages, not thousands. */
describe('LiveQuerySync', () => {
  it('gathers a burst of mosque changes into one invalidation, and a later change into another', () => {
    vi.useFakeTimers();
    const handlers = new Set<() => void>();
    const live = {
      subscribe: (type: string, handler: () => void) => {
        if (type !== 'mosque_update') return () => undefined;
        handlers.add(handler);
        return () => handlers.delete(handler);
      },
    } as unknown as LiveContextValue;
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    render(
      <QueryClientProvider client={client}>
        <LiveContext.Provider value={live}>
          <LiveQuerySync />
        </LiveContext.Provider>
      </QueryClientProvider>,
    );
    const change = () => handlers.forEach((handler) => handler());
    for (let i = 0; i < 2000; i += 1) change();
    expect(invalidate).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(MOSQUE_UPDATE_GATHER_MS);
    });
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: configQueryKey });
    change();
    act(() => {
      vi.advanceTimersByTime(MOSQUE_UPDATE_GATHER_MS);
    });
    expect(invalidate).toHaveBeenCalledTimes(2);
  });
});
