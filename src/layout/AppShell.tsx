import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { createQueryClient } from '../app/query-client';
import { LiveProvider } from '../live/LiveProvider';
import { LiveQuerySync } from '../live/LiveQuerySync';
import { AppLayout } from './AppLayout';

/**
 * Everything a signed-in console needs beyond the login page: the query cache (one per session),
 * the live connection, the layout. Loaded lazily, after the guard lets the operator in.
 */
export default function AppShell() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {/* Back after an interruption: what the pages show may be stale, so ask again. */}
      <LiveProvider onReconnected={() => void queryClient.invalidateQueries()}>
        <LiveQuerySync />
        <AppLayout />
      </LiveProvider>
    </QueryClientProvider>
  );
}
