import { format, isValid, parseISO } from 'date-fns';

/** What a missing instant reads as. */
export const NEVER = 'Never';

function toDate(value: string): Date | null {
  const date = parseISO(value);
  return isValid(date) ? date : null;
}

function formatWith(value: string | null | undefined, pattern: string): string {
  if (value === null || value === undefined || value === '') return NEVER;
  const date = toDate(value);
  return date ? format(date, pattern) : value;
}

/** Medium date and time, e.g. "Nov 27, 2026, 11:29 AM"; "Never" when missing; the raw value when unreadable. */
export function formatDateTime(value: string | null | undefined): string {
  return formatWith(value, 'MMM d, yyyy, h:mm a');
}

/** Long date plus time with seconds (profile), e.g. "November 27, 2026, 11:29:05 AM". */
export function formatLongDateTime(value: string | null | undefined): string {
  return formatWith(value, 'MMMM d, yyyy, h:mm:ss a');
}
