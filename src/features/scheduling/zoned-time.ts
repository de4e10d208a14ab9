/*
 * Instants shown on a mosque's own clock (its IANA zone) and on the operator's, in the console's medium
 * style ("Nov 27, 2026, 11:09 AM", as formatDateTime writes local times). Built from Intl parts so the
 * text is the same in every browser (no narrow no-break spaces before AM/PM).
 */

type Parts = Partial<Record<Intl.DateTimeFormatPartTypes, string>>;

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The operator's zone, read again on every call (about 60 µs): a formatter kept for "the operator's
 * zone" would keep showing the old one after the machine's zone changes under an open console.
 */
const operatorZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

function formatter(timeZone: string = operatorZone()): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      weekday: 'short',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
      timeZoneName: 'short',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

function toDate(instant: string | null | undefined): Date | null {
  if (!instant) return null;
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The parts of `date` in `timeZone` (undefined: the operator's own zone); UTC when the zone is unknown here. */
function partsOf(date: Date, timeZone: string | undefined): Parts {
  let list: Intl.DateTimeFormatPart[];
  try {
    list = formatter(timeZone).formatToParts(date);
  } catch {
    list = formatter('UTC').formatToParts(date);
  }
  return Object.fromEntries(list.map((part) => [part.type, part.value]));
}

const timeOf = (p: Parts) => `${p.hour}:${p.minute} ${p.dayPeriod}`;
const dateOf = (p: Parts) => `${p.month} ${p.day}, ${p.year}`;

/** What a missing or unreadable instant reads as. */
export const NO_TIME = 'Not set';

/** "Nov 27, 2026, 11:09 AM" on the clock of `timeZone` (undefined: the operator's). */
export function zonedDateTime(instant: string | null | undefined, timeZone?: string): string {
  const date = toDate(instant);
  if (!date) return NO_TIME;
  const p = partsOf(date, timeZone);
  return `${dateOf(p)}, ${timeOf(p)}`;
}

/** "11:09 AM" on the clock of `timeZone` (undefined: the operator's). */
export function zonedTime(instant: string | null | undefined, timeZone?: string): string {
  const date = toDate(instant);
  return date ? timeOf(partsOf(date, timeZone)) : NO_TIME;
}

/** "Fri, Nov 27, 2026" on the clock of `timeZone`. */
export function zonedDate(instant: string | null | undefined, timeZone?: string): string {
  const date = toDate(instant);
  if (!date) return NO_TIME;
  const p = partsOf(date, timeZone);
  return `${p.weekday}, ${dateOf(p)}`;
}

/** The zone's short name at that instant (en-US): "GMT", "GMT+1" (London in summer), "GMT+3", "EST". */
export function zoneAbbreviation(instant: string | null | undefined, timeZone?: string): string {
  const date = toDate(instant) ?? new Date();
  return partsOf(date, timeZone).timeZoneName ?? '';
}

/** The operator's own time of an instant, with the zone: "Nov 27, 12:09 PM CST" (`timeZone` stands in for the browser's). */
export function operatorTime(instant: string | null | undefined, timeZone?: string): string {
  const date = toDate(instant);
  if (!date) return NO_TIME;
  const p = partsOf(date, timeZone);
  return `${p.month} ${p.day}, ${timeOf(p)} ${p.timeZoneName ?? ''}`.trim();
}
