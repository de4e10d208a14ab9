import { LAUNCH_DEFAULTS, launchConfigSchema, type LaunchConfigInput } from '../../../contract/instances';
import { hasFieldErrors, schemaFieldErrors, type FieldErrors } from '../../lib/field-errors';

/** The launch dialog's fields, as typed (docs/reference.md sections 3 and 5, Launch config). */
export interface LaunchFormValues {
  url: string;
  duration: string;
  width: string;
  height: string;
  mosque_id: string;
  method: string;
}

export type LaunchFormErrors = FieldErrors<keyof LaunchFormValues>;

export const LAUNCH_METHODS = ['api', 'sequential'] as const;

export const DEFAULT_LAUNCH_FORM: LaunchFormValues = {
  url: '',
  duration: String(LAUNCH_DEFAULTS.duration),
  width: String(LAUNCH_DEFAULTS.width),
  height: String(LAUNCH_DEFAULTS.height),
  mosque_id: '',
  method: LAUNCH_DEFAULTS.method,
};

const NUMBER_LABELS = { duration: 'Duration', width: 'Width', height: 'Height' } as const;

/** Parsed as an integer (docs/reference.md section 5); an empty field takes its default, an unreadable one stays NaN for the schema to refuse. */
function number(value: string, fallback: number): number {
  return value.trim() === '' ? fallback : Number.parseInt(value, 10);
}

export function launchConfig(values: LaunchFormValues): LaunchConfigInput {
  const mosqueId = values.mosque_id.trim();
  return {
    url: values.url.trim(),
    duration: number(values.duration, LAUNCH_DEFAULTS.duration),
    width: number(values.width, LAUNCH_DEFAULTS.width),
    height: number(values.height, LAUNCH_DEFAULTS.height),
    mosque_id: mosqueId === '' ? null : mosqueId,
    method: values.method || LAUNCH_DEFAULTS.method,
  };
}

/** What the contract's launch schema refuses in the form; an empty Stream URL is simply not ready yet. */
export function launchFormErrors(values: LaunchFormValues): LaunchFormErrors {
  const errors = schemaFieldErrors<keyof LaunchFormValues>(launchConfigSchema, launchConfig(values), NUMBER_LABELS);
  if (values.url.trim() === '') delete errors.url;
  return errors;
}

/** Launch is possible once a Stream URL is typed, the form is valid and nothing is being sent. */
export function canLaunch(values: LaunchFormValues, busy: boolean): boolean {
  return !busy && values.url.trim() !== '' && !hasFieldErrors(launchFormErrors(values));
}
