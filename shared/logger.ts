import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { correlationKeys } from './request-scope.js';
import type { Log } from './runtime.js';

/** The extra keys of a line: the caller's, then the request's correlation id. */
const withCorrelation = (extra: Record<string, unknown>[]): Record<string, unknown>[] => {
  const keys = correlationKeys();
  return keys ? [...extra, keys] : extra;
};

/**
 * Powertools Logger (JSON lines) behind the Log port: each line carries the Lambda context
 * once `addContext` has been given it (function name, request id, cold start) and, inside a
 * request, its `correlation_id`.
 */
export class KnapLogger implements Log {
  constructor(readonly powertools: Logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'knap-api' })) {}
  info(message: string, ...extra: Record<string, unknown>[]): void {
    this.powertools.info(message, ...withCorrelation(extra));
  }
  warn(message: string, ...extra: Record<string, unknown>[]): void {
    this.powertools.warn(message, ...withCorrelation(extra));
  }
  error(message: string, ...extra: Record<string, unknown>[]): void {
    this.powertools.error(message, ...withCorrelation(extra));
  }
  addContext(context: Context): void {
    this.powertools.addContext(context);
  }
}

export const createLogger = (): KnapLogger => new KnapLogger();
