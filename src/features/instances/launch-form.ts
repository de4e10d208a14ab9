import {
  LAUNCH_DEFAULTS,
  LAUNCH_LIMITS,
  launchConfigSchema,
  type LaunchConfigInput,
} from '../../../contract/instances';
import { hasFieldErrors, schemaFieldErrors, type FieldErrors } from '../../lib/field-errors';

/** The launch dialog's fields, as typed (docs/reference.md sections 3 and 5, Launch config). */
export interface LaunchFormValues {
  url: string;
  duration: string;
  width: string;
  height: string;
  mosque_id: string;
  method: string;
  /** `now`, or `at` the time in start_at. */
  start: 'now' | 'at';
  /** The window's start in the operator's local time, as a datetime-local field gives it (`2026-11-27T12:30`). */
  start_at: string;
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
  start: 'now',
  start_at: '',
};

/** A start this close behind the clock is still accepted (the server's slack for the request's travel). */
const START_AT_PAST_SLACK_MS = 60_000;

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
    ...(values.start === 'at' ? { start_at: instantOf(values.start_at) } : {}),
  };
}

/** The local date and time typed, as the UTC instant the API takes; an unreadable one as typed (the schema refuses it). */
function instantOf(local: string): string {
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? local : at.toISOString();
}

/** What is wrong with a chosen start time, against the browser's clock `now` (the server checks again). */
function startAtError(values: LaunchFormValues, now: Date): string | undefined {
  if (values.start !== 'at') return undefined;
  if (values.start_at.trim() === '') return 'Choose when the recording starts';
  const at = new Date(values.start_at).getTime();
  if (Number.isNaN(at)) return 'Not a date and time';
  if (at < now.getTime() - START_AT_PAST_SLACK_MS) return 'This time has passed: choose a later one, or start now';
  if (at > now.getTime() + LAUNCH_LIMITS.startAtDays * 86_400_000)
    return `At most ${LAUNCH_LIMITS.startAtDays} days ahead`;
  return undefined;
}

/** What the contract's launch schema refuses in the form; an empty Stream URL is simply not ready yet. */
export function launchFormErrors(values: LaunchFormValues, now = new Date()): LaunchFormErrors {
  const errors = schemaFieldErrors<keyof LaunchFormValues>(launchConfigSchema, launchConfig(values), NUMBER_LABELS);
  if (values.url.trim() === '') delete errors.url;
  const startAt = startAtError(values, now);
  if (startAt) errors.start_at = startAt;
  else delete errors.start_at;
  return errors;
}

/** Launch is possible once a Stream URL is typed, the form is valid and nothing is being sent. */
export function canLaunch(values: LaunchFormValues, busy: boolean, now = new Date()): boolean {
  return !busy && values.url.trim() !== '' && !hasFieldErrors(launchFormErrors(values, now));
}
