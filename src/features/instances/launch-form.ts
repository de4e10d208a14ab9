import { LAUNCH_DEFAULTS, type LaunchConfigInput } from '../../../contract/instances';

/** The launch dialog's fields, as typed (SPEC.md sections 3 and 5, Launch config). */
export interface LaunchFormValues {
  url: string;
  duration: string;
  width: string;
  height: string;
  mosque_id: string;
  method: string;
}

export const LAUNCH_METHODS = ['api', 'sequential'] as const;

export const DEFAULT_LAUNCH_FORM: LaunchFormValues = {
  url: '',
  duration: String(LAUNCH_DEFAULTS.duration),
  width: String(LAUNCH_DEFAULTS.width),
  height: String(LAUNCH_DEFAULTS.height),
  mosque_id: '',
  method: LAUNCH_DEFAULTS.method,
};

/** Launch is possible once a Stream URL is typed (and nothing is being sent). */
export function canLaunch(values: LaunchFormValues, busy: boolean): boolean {
  return !busy && values.url.trim() !== '';
}

/** Whole numbers, as parseInt reads them; an unreadable field falls back to its default. */
function integer(value: string, fallback: number): number {
  const parsed = Number.parseInt(value, 10);
  return Number.isNaN(parsed) ? fallback : parsed;
}

export function launchConfig(values: LaunchFormValues): LaunchConfigInput {
  const mosqueId = values.mosque_id.trim();
  return {
    url: values.url.trim(),
    duration: integer(values.duration, LAUNCH_DEFAULTS.duration),
    width: integer(values.width, LAUNCH_DEFAULTS.width),
    height: integer(values.height, LAUNCH_DEFAULTS.height),
    mosque_id: mosqueId === '' ? null : mosqueId,
    method: values.method || LAUNCH_DEFAULTS.method,
  };
}
