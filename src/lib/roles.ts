import type { Role } from '../../contract/auth';

/** Short role label (menu, chips). */
export function roleLabel(role: Role | string): string {
  return role === 'admin' ? 'Admin' : 'User';
}

/** Long role label (profile account details). */
export function roleLongLabel(role: Role | string): string {
  return role === 'admin' ? 'Administrator' : 'User';
}
