import { QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { useLayoutEffect, type ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation, type Location } from 'react-router-dom';
import { AppProviders } from '../../../src/app/App';
import { createQueryClient } from '../../../src/app/query-client';
import { AppRoutes } from '../../../src/app/routes';
import { LiveProvider } from '../../../src/live/LiveProvider';
import { LiveQuerySync } from '../../../src/live/LiveQuerySync';
import { sessionFor } from '../../../src/mocks/store';

/*
 * The console's lazy modules, not loaded yet: renderApp loads the shell, the login page and the page of
 * its path before it renders, so a test's wait never includes transforming them (on a busy machine that
 * ate a 5 s wait), and a file loads only the pages it opens: loading all twelve first made a one-file
 * run of the login tests spend 20 s transforming.
 */
const shellModules = import.meta.glob([
  '../../../src/layout/AppShell.tsx',
  '../../../src/features/login/LoginPage.tsx',
]);
const pageModules = import.meta.glob('../../../src/features/*/*Page.tsx');

/** The shell, the login page (where the guard may send the test) and the page shown at `path` ('/' is the dashboard). */
export async function loadRoute(path: string): Promise<void> {
  const folder = new URL(path, 'http://console.test').pathname.split('/')[1] || 'dashboard';
  const page = Object.entries(pageModules).find(([file]) => file.split('/').at(-2) === folder)?.[1];
  await Promise.all([...Object.values(shellModules), ...(page ? [page] : [])].map((load) => load()));
}

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

/**
 * The whole console at `path`: providers, guard, lazy routes, layout, as in the browser (with the mocks).
 * For the routes, the guard and the shell; a page's own behaviour is tested with renderWithProviders.
 */
export async function renderApp(path = '/', { as, userOptions }: RenderOptions = {}): Promise<Rendered> {
  await loadRoute(path);
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
export function renderWithProviders(
  ui: ReactElement,
  { path = '/', as, userOptions }: RenderOptions & { path?: string } = {},
): Rendered {
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

/**
 * A page as the shell mounts it (a fresh query cache, the live connection to the mocks), without the
 * shell's layout and guard, which renderApp's tests cover.
 */
export function renderPage(page: ReactElement, options: RenderOptions & { path?: string } = {}): Rendered {
  return renderWithProviders(
    <LiveProvider>
      <LiveQuerySync />
      {page}
    </LiveProvider>,
    options,
  );
}
