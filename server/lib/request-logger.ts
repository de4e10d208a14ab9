import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger as PinoLogger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger that becomes a pino child only when it writes a line. Fastify makes a child per
 * request, and with redaction configured pino runs the redactor over the child's bindings (the request
 * id) as it makes it: about 2% of the CPU of a cached API answer, for a logger that at the default
 * levels almost never writes. A call below the level costs one level check, as it would on a child.
 */
class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: PinoLogger,
    private readonly bindings: Bindings,
  ) {}

  get level(): string {
    return (this.made ?? this.parent).level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.write('error', args);
  }

  warn(...args: unknown[]): void {
    this.write('warn', args);
  }

  info(...args: unknown[]): void {
    this.write('info', args);
  }

  debug(...args: unknown[]): void {
    this.write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  private write(level: Level, args: unknown[]): void {
    if (this.made === undefined && !this.parent.isLevelEnabled(level)) return;
    const logger = this.logger();
    // Still a call on `logger` (the cast leaves the member access), so pino's methods keep their `this`.
    (logger[level] as (...line: unknown[]) => void)(...args);
  }

  private logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings);
    return this.made;
  }
}

const isPino = (logger: FastifyBaseLogger): logger is FastifyBaseLogger & PinoLogger =>
  typeof (logger as Partial<PinoLogger>).isLevelEnabled === 'function';

/**
 * Fastify's `childLoggerFactory`: a lazy child for every request, except where a route sets its own
 * log level or serializers (then the child is made at once, as Fastify would).
 */
export const lazyRequestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => {
  if (!isPino(logger) || options.level !== undefined || options.serializers !== undefined)
    return logger.child(bindings, options);
  return new RequestLogger(logger, bindings);
};
