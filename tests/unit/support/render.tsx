import { QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { useLayoutEffect, type ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation, type Location } from 'react-router-dom';
import { AppProviders } from '../../../src/app/App';
import { createQueryClient } from '../../../src/app/query-client';
import { AppRoutes } from '../../../src/app/routes';
import { sessionFor } from '../../../src/mocks/store';

/*
 * renderApp mounts the console's lazy pages. Their modules load here, with this module, before any
 * test runs: transformed on first use inside a test, they ate its 5 s wait on a busy machine.
 */
const lazyModules = import.meta.glob(['../../../src/features/*/*Page.tsx', '../../../src/layout/AppShell.tsx']);
await Promise.all(Object.values(lazyModules).map((load) => load()));

let currentLocation: Location | null = null;

function LocationProbe() {
  const location = useLocation();
  // A layout effect runs during the commit, so the path is current as soon as the page shows (even with fake timers).
  useLayoutEffect(() => {
    currentLocation = location;
  }, [location]);
  return null;
}

/** Where the app is now: pathname + search. */
export function currentPath(): string {
  return currentLocation ? `${currentLocation.pathname}${currentLocation.search}` : '';
}

export interface RenderOptions {
  /** Sign this mock user in first (their token is put where the console keeps it). */
  as?: string;
  /** user-event options, e.g. advanceTimers for fake timers. */
  userOptions?: Parameters<typeof userEvent.setup>[0];
}

export type Rendered = RenderResult & { user: UserEvent };

/** The whole console at `path`: providers, guard, lazy routes, layout, as in the browser (with the mocks). */
export function renderApp(path = '/', { as, userOptions }: RenderOptions = {}): Rendered {
  if (as) localStorage.setItem('token', sessionFor(as));
  const user = userEvent.setup(userOptions);
  const result = render(
    <AppProviders>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...result, user };
}

/** One component with the app's providers and a fresh query cache, mounted at `path`. */
export function renderWithProviders(ui: ReactElement, { path = '/', as, userOptions }: RenderOptions & { path?: string } = {}): Rendered {
  if (as) localStorage.setItem('token', sessionFor(as));
  const user = userEvent.setup(userOptions);
  const result = render(
    <AppProviders>
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="*" element={ui} />
          </Routes>
          <LocationProbe />
        </MemoryRouter>
      </QueryClientProvider>
    </AppProviders>,
  );
  return { ...result, user };
}
