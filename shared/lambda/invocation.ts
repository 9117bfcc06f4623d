import type { Context } from 'aws-lambda';
import { loadTracerIfSampled } from './sampled-tracing.js';

/**
 * What every function does first in each invocation, routes and jobs alike: name the
 * invocation in every log line, and load X-Ray if Lambda sampled it (shared/lambda/sampled-tracing.ts).
 * A promise only when there is something to wait for.
 */
export const startInvocation = (
  log: { addContext?(context: Context): void },
  context: Context | undefined,
): Promise<void> | undefined => {
  if (context) log.addContext?.(context);
  return loadTracerIfSampled();
};
