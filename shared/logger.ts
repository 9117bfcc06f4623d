import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { correlationKeys, type RequestScope } from './request-scope.js';
import type { Log } from './runtime.js';

/**
 * Powertools Logger (JSON lines) behind the Log port: each line carries the Lambda context
 * once `addContext` has been given it (function name, request id, cold start) and, from the
 * logger a request's deps hold (`within`), its `correlation_id`, function and invocation id.
 */
/**
 * The Lambda context of the invocation under way, shared by a logger and its `within` views:
 * Powertools is given it only when a line is written. Reading the invocation's store costs a
 * few microseconds per request (Powertools looks at the environment each time), and most
 * requests write no line.
 */
interface InvocationContext {
  added: boolean;
  pending?: Context;
}

export class KnapLogger implements Log {
  constructor(
    readonly powertools: Logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'knap-api' }),
    /** The request's keys, added to every line after the caller's own. */
    private readonly keys?: Record<string, string>,
    private readonly invocation: InvocationContext = { added: false },
  ) {}
  private extra(extra: Record<string, unknown>[]): Record<string, unknown>[] {
    const { invocation } = this;
    if (invocation.pending) {
      this.powertools.addContext(invocation.pending);
      invocation.pending = undefined;
    }
    return this.keys ? [...extra, this.keys] : extra;
  }
  info(message: string, ...extra: Record<string, unknown>[]): void {
    this.powertools.info(message, ...this.extra(extra));
  }
  warn(message: string, ...extra: Record<string, unknown>[]): void {
    this.powertools.warn(message, ...this.extra(extra));
  }
  error(message: string, ...extra: Record<string, unknown>[]): void {
    this.powertools.error(message, ...this.extra(extra));
  }
  /**
   * The first invocation's context is given to Powertools at once, which marks that one the
   * cold start; each later one when the invocation writes its first line.
   */
  addContext(context: Context): void {
    const { invocation } = this;
    if (invocation.added) {
      invocation.pending = context;
      return;
    }
    invocation.added = true;
    this.powertools.addContext(context);
  }
  within(scope: RequestScope): KnapLogger {
    const keys = correlationKeys(scope);
    return keys ? new KnapLogger(this.powertools, Object.assign({}, this.keys, keys), this.invocation) : this;
  }
}

export const createLogger = (): KnapLogger => new KnapLogger();
