import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { powertools } from './lambda/powertools.js';
import { correlationKeys, type RequestScope } from './request-scope.js';
import type { Log } from './runtime.js';

/**
 * What a logger and its `within` views share. Most requests write no line, so Powertools is
 * made with the container's first line (loaded then too: shared/lambda/powertools.ts), and
 * given an invocation's context only when that invocation writes (reading the invocation's
 * store costs a few microseconds per request: Powertools looks at the environment each time).
 */
interface Shared {
  make: () => Logger;
  logger?: Logger;
  /** The context of the invocation under way (always the latest given), until it writes a line. */
  pending?: Context;
  /** How many invocations have begun: the pending context is the cold start's while this is 1. */
  invocations: number;
  /** Whether Powertools has been given a context (its first is the one it marks the cold start). */
  given: boolean;
}

const defaultPowertools = (): Logger =>
  new (powertools().Logger)({ serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'knap-api' });

/**
 * Powertools Logger (JSON lines) behind the Log port: each line carries the Lambda context
 * once `addContext` has been given it (function name, request id, cold start) and, from the
 * logger a request's deps hold (`within`), its `correlation_id`, function and invocation id.
 */
export class KnapLogger implements Log {
  private readonly shared: Shared;

  constructor(
    /** Powertools' Logger, or how to make it when the first line is written. */
    logger: Logger | (() => Logger) = defaultPowertools,
    /** The request's keys, added to every line after the caller's own. */
    private readonly keys?: Record<string, string>,
    shared?: Shared,
  ) {
    this.shared = shared ?? {
      make: typeof logger === 'function' ? logger : () => logger,
      invocations: 0,
      given: false,
    };
  }

  /** Powertools' Logger, made (and loaded) on first use. */
  get powertools(): Logger {
    this.shared.logger ??= this.shared.make();
    return this.shared.logger;
  }

  /** Powertools' Logger, given the context of the invocation under way. */
  private current(): Logger {
    const { shared } = this;
    const logger = this.powertools;
    if (shared.pending) {
      // The first invocation wrote nothing, so this later one is no cold start: take Powertools'
      // mark (flipped by its first getColdStart, protected in its types) before giving the context.
      if (shared.invocations > 1 && !shared.given) (logger as unknown as { getColdStart(): boolean }).getColdStart();
      logger.addContext(shared.pending);
      shared.given = true;
      shared.pending = undefined;
    }
    return logger;
  }
  private extra(extra: Record<string, unknown>[]): Record<string, unknown>[] {
    return this.keys ? [...extra, this.keys] : extra;
  }
  info(message: string, ...extra: Record<string, unknown>[]): void {
    this.current().info(message, ...this.extra(extra));
  }
  warn(message: string, ...extra: Record<string, unknown>[]): void {
    this.current().warn(message, ...this.extra(extra));
  }
  error(message: string, ...extra: Record<string, unknown>[]): void {
    this.current().error(message, ...this.extra(extra));
  }
  /** Kept until the invocation writes a line; the container's first one is the cold start. */
  addContext(context: Context): void {
    const { shared } = this;
    shared.pending = context;
    shared.invocations += 1;
  }
  within(scope: RequestScope): KnapLogger {
    const keys = correlationKeys(scope);
    return keys ? new KnapLogger(this.shared.make, Object.assign({}, this.keys, keys), this.shared) : this;
  }
}

export const createLogger = (): KnapLogger => new KnapLogger();
