/** Chip colour of an instance state (docs/reference.md section 4). */
export type StateColor = 'warning' | 'success' | 'info' | 'default' | 'error';

export function instanceStateColor(state: string | null | undefined): StateColor {
  switch (state) {
    case 'pending':
      return 'warning';
    case 'running':
      return 'success';
    case 'stopping':
      return 'info';
    case 'stopped':
    case 'terminated':
      return 'default';
    default:
      return 'error';
  }
}
