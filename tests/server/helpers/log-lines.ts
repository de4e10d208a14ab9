import { Writable } from 'node:stream';

/** A stream for a pino logger that keeps each line it writes, parsed as JSON (pino writes one object per line). */
export function collectLogLines<T = Record<string, unknown>>(): { stream: Writable; lines: T[] } {
  const lines: T[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as T);
      done();
    },
  });
  return { stream, lines };
}
