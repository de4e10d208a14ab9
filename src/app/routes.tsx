import { Suspense } from 'react';
import { Navigate, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { FullPageSpinner, RequireAuth } from '../auth/RequireAuth';
import { ChunkErrorBoundary } from './ChunkErrorBoundary';
import { recoverableLazy as lazy } from './recoverable-lazy';

/*
 * Every page is its own lazy chunk, so /login loads only what it shows. A page module default-exports its
 * page component: src/features/<page>/<Name>Page.tsx. A chunk that cannot load (server down, new release)
 * is retried and explained by ChunkErrorBoundary here (login, shell) and inside the shell (pages).
 */
const AppShell = lazy(() => import('../layout/AppShell'));
const LoginPage = lazy(() => import('../features/login/LoginPage'));
const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage'));
const InstancesPage = lazy(() => import('../features/instances/InstancesPage'));
const AmiPage = lazy(() => import('../features/ami/AmiPage'));
const ConfigPage = lazy(() => import('../features/config/ConfigPage'));
const SchedulingPage = lazy(() => import('../features/scheduling/SchedulingPage'));
const RecordingsPage = lazy(() => import('../features/recordings/RecordingsPage'));
const MonitoringPage = lazy(() => import('../features/monitoring/MonitoringPage'));
const GithubPage = lazy(() => import('../features/github/GithubPage'));
const ProfilePage = lazy(() => import('../features/profile/ProfilePage'));
const ChangePasswordPage = lazy(() => import('../features/change-password/ChangePasswordPage'));
const UsersPage = lazy(() => import('../features/users/UsersPage'));
const AlarmsPage = lazy(() => import('../features/alarms/AlarmsPage'));

export const routes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  {
    element: (
      <RequireAuth>
        <AppShell />
      </RequireAuth>
    ),
    children: [
      { index: true, element: <DashboardPage /> },
      { path: 'instances', element: <InstancesPage /> },
      { path: 'ami', element: <AmiPage /> },
      { path: 'config', element: <ConfigPage /> },
      { path: 'scheduling', element: <SchedulingPage /> },
      { path: 'recordings', element: <RecordingsPage /> },
      { path: 'monitoring', element: <MonitoringPage /> },
      { path: 'github', element: <GithubPage /> },
      { path: 'profile', element: <ProfilePage /> },
      { path: 'change-password', element: <ChangePasswordPage /> },
      { path: 'users', element: <UsersPage /> },
      { path: 'alarms', element: <AlarmsPage /> },
    ],
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
