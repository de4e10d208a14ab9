const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** Fields every line has, or that the message already says (an access line's). */
const UNSHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'method', 'path', 'statusCode', 'ms']);

function shown(value: unknown): string {
  if (typeof value === 'string') return /\s/.test(value) ? JSON.stringify(value) : value;
  return JSON.stringify(value);
}

/**
 * A pino JSON line as a person reads it in a terminal: `09:14:03 INFO GET /api/instances 200 4 ms`, then any
 * other fields as key=value (an error by its message). Anything that is not a JSON line passes unchanged.
 */
export function readableLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '--:--:--';
  const level = LEVEL_NAMES[entry.level as number] ?? String(entry.level);
  const fields = Object.entries(entry)
    .filter(([key]) => !UNSHOWN.has(key))
    .map(([key, value]) => {
      const error = value as { message?: unknown } | null;
      return key === 'err' && typeof error?.message === 'string'
        ? `err=${shown(error.message)}`
        : `${key}=${shown(value)}`;
    });
  return `${[time, level.padEnd(5), String(entry.msg ?? ''), ...fields].join(' ').trimEnd()}\n`;
}

/** A pino destination writing readable lines to `out` (the server's log in a terminal). */
export function readableLogStream(out: NodeJS.WritableStream): { write(line: string): void } {
  return { write: (line) => void out.write(readableLine(line)) };
}
