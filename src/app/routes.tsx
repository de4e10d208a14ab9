import { lazy, Suspense } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router-dom';
import { FullPageSpinner, RequireAuth } from '../auth/RequireAuth';

/*
 * Every page is its own lazy chunk, so /login loads only what it shows. A page module default-exports its
 * page component: src/features/<page>/<Name>Page.tsx. Replace a placeholder by editing its feature folder.
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
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];

export function AppRoutes() {
  const element = useRoutes(routes);
  return <Suspense fallback={<FullPageSpinner />}>{element}</Suspense>;
}
