import { Suspense } from 'react';
import { Navigate, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { FullPageSpinner, RequireAuth } from '../auth/RequireAuth';
import { preloadFirstPage as preloadConfigFirstPage } from '../features/mosques/preload';
import LoginPage from '../features/login/LoginPage';
import { ChunkErrorBoundary } from './ChunkErrorBoundary';
import { recoverableLazy as lazy, type RecoverableLazy } from './recoverable-lazy';

/*
 * The sign-in page is in the entry chunk: it is the first page of every visit without a session, and
 * as a lazy chunk its form waited behind a spinner for one more round trip (2x a bare page's time to
 * show it). Every other page is its own lazy chunk, so /login loads only what it shows. A page module default-exports its
 * page component: src/features/<page>/<Name>Page.tsx. A chunk that cannot load (server down, new release)
 * is retried and explained by ChunkErrorBoundary here (login, shell) and inside the shell (pages).
 */
const loadShell = () => import('../layout/AppShell');
/** Each page's module, by its path under the shell ('' is the Dashboard). */
const pageModules = {
  '': () => import('../features/dashboard/DashboardPage'),
  instances: () => import('../features/instances/InstancesPage'),
  ami: () => import('../features/ami/AmiPage'),
  config: () => import('../features/mosques/ConfigPage'),
  scheduling: () => import('../features/scheduling/SchedulingPage'),
  recordings: () => import('../features/recordings/RecordingsPage'),
  monitoring: () => import('../features/monitoring/MonitoringPage'),
  github: () => import('../features/github/GithubPage'),
  profile: () => import('../features/profile/ProfilePage'),
  'change-password': () => import('../features/change-password/ChangePasswordPage'),
  users: () => import('../features/users/UsersPage'),
  alarms: () => import('../features/alarms/AlarmsPage'),
};

/**
 * The first read of a page that opens at fleet size, by its path: started with the session check,
 * beside the page's code rather than after its first render (the 10,000-mosque table). In the
 * entry (a few hundred bytes, by fetch): as a chunk of its own it was run after the page's larger
 * chunks that arrived with it, and the read left after the page had rendered without it.
 */
const pageData: Partial<Record<keyof typeof pageModules, (search: string) => void>> = {
  config: preloadConfigFirstPage,
};

const AppShell = lazy(loadShell);
/** Each page, by its path under the shell, lazy. */
const pages = Object.fromEntries(Object.entries(pageModules).map(([path, load]) => [path, lazy(load)])) as Record<
  keyof typeof pageModules,
  RecoverableLazy<object>
>;

/**
 * Starts loading the shell, the page of the address and the page's first data at once, while the
 * session is checked: otherwise they come one after the other (session, then shell, then page, then its
 * data), each a round trip before the next. The first read does not wait for the check: its answer was
 * handled only once the page's chunks had run (150 ms of script on a busy main thread), and the read
 * left that much later. Sent by fetch, a read with a token the check refuses only fails (the page asks
 * again through the HTTP client, after the guard has sent the operator to sign in). Preloaded through
 * the lazy pages themselves, which then render at once instead of suspending. Settles when the shell's
 * and the page's modules have loaded (or failed: a failed preload is left for the page to retry and report).
 */
export function preloadRoute({ pathname, search }: { pathname: string; search: string }): Promise<void> {
  const path = pathname.replace(/^\/+|\/+$/g, '') as keyof typeof pageModules;
  const page = Object.hasOwn(pages, path) ? pages[path] : undefined;
  if (!page || pathname.startsWith('/login')) return Promise.resolve();
  pageData[path]?.(search);
  return Promise.all([AppShell.preload(), page.preload()]).then(() => undefined);
}

export const routes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  {
    element: (
      <RequireAuth>
        <AppShell />
      </RequireAuth>
    ),
    children: Object.entries(pages).map(([path, Page]) =>
      path === '' ? { index: true, element: <Page /> } : { path, element: <Page /> },
    ),
  },
  { path: '*', element: <Navigate to="/" replace /> },
];

export function AppRoutes() {
  const element = useRoutes(routes);
  const { pathname } = useLocation();
  return (
    <ChunkErrorBoundary resetKey={pathname}>
      <Suspense fallback={<FullPageSpinner />}>{element}</Suspense>
    </ChunkErrorBoundary>
  );
}
