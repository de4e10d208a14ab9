/** Top-bar titles by route (docs/reference.md section 2); anything else reads Dashboard. */
const TITLES: Record<string, string> = {
  '/': 'Dashboard',
  '/instances': 'Instances',
  '/ami': 'AMI Manager',
  '/config': 'Config Generator',
  '/scheduling': 'Scheduling',
  '/recordings': 'Recordings',
  '/monitoring': 'Monitoring',
  '/github': 'GitHub',
  '/profile': 'My Profile',
  '/change-password': 'Change Password',
  '/users': 'User Management',
  '/alarms': 'Alarms',
};

export function pageTitle(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return TITLES[path] ?? 'Dashboard';
}
