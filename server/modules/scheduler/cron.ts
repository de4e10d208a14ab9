/**
 * A five-field cron expression (minute hour day-of-month month day-of-week) evaluated in UTC:
 * numbers, `*`, lists, ranges and steps. Enough for the recurring scheduling job; day-of-week 0 or 7
 * is Sunday. When both day fields are restricted, either may match (classic cron).
 */
export class CronExpression {
  private readonly fields: Set<number>[];
  private readonly domAny: boolean;
  private readonly dowAny: boolean;

  constructor(readonly source: string) {
    const parts = source.trim().split(/\s+/);
    if (parts.length !== 5) throw new Error(`Cron expression needs 5 fields: ${source}`);
    const ranges: [number, number][] = [[0, 59], [0, 23], [1, 31], [1, 12], [0, 7]];
    this.fields = parts.map((part, i) => parseField(part, ranges[i][0], ranges[i][1]));
    if (this.fields[4].has(7)) this.fields[4].add(0);
    this.domAny = parts[2] === '*';
    this.dowAny = parts[4] === '*';
  }

  /** The first matching minute strictly after `after`. */
  next(after: Date): Date {
    const t = new Date(after.getTime());
    t.setUTCSeconds(0, 0);
    t.setUTCMinutes(t.getUTCMinutes() + 1);
    const [minutes, hours, , months] = this.fields;
    for (let guard = 0; guard < 366 * 24 * 60 * 5; guard++) {
      if (!months.has(t.getUTCMonth() + 1)) {
        t.setUTCMonth(t.getUTCMonth() + 1, 1);
        t.setUTCHours(0, 0, 0, 0);
      } else if (!this.dayMatches(t)) {
        t.setUTCDate(t.getUTCDate() + 1);
        t.setUTCHours(0, 0, 0, 0);
      } else if (!hours.has(t.getUTCHours())) {
        t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
      } else if (!minutes.has(t.getUTCMinutes())) {
        t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
      } else {
        return t;
      }
    }
    throw new Error(`Cron expression never matches: ${this.source}`);
  }

  private dayMatches(t: Date): boolean {
    const dom = this.fields[2].has(t.getUTCDate());
    const dow = this.fields[4].has(t.getUTCDay());
    if (this.domAny) return dow;
    if (this.dowAny) return dom;
    return dom || dow;
  }
}

function parseField(field: string, min: number, max: number): Set<number> {
  const values = new Set<number>();
  for (const item of field.split(',')) {
    const [range, stepText] = item.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    let from: number;
    let to: number;
    if (range === '*') [from, to] = [min, max];
    else if (range.includes('-')) [from, to] = range.split('-').map(Number) as [number, number];
    else [from, to] = [Number(range), stepText === undefined ? Number(range) : max];
    if (![from, to, step].every(Number.isInteger) || from < min || to > max || from > to || step < 1) {
      throw new Error(`Invalid cron field "${field}"`);
    }
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}
