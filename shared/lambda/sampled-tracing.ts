/**
 * X-Ray for the DynamoDB clients, loaded by the first invocation X-Ray samples, not at init.
 *
 * The Powertools Tracer and the X-Ray SDK under it add about 120 KB to a bundle and 20 to 45 ms
 * to every cold start (scripts/measure-bundles.ts), yet only sampled invocations are recorded:
 * Lambda samples the first request of each second and 5% of the rest, and sends no trace for
 * the others. So deployed bundles carry the tracer beside them, as `tracing.mjs`
 * (lib/knap-function.ts), and a container imports it when one of its invocations is sampled.
 * From then on every DynamoDB call of the container is a subsegment of its invocation (the
 * X-Ray SDK itself sends nothing for unsampled ones). A container that X-Ray never samples
 * never pays for the tracer; the one that is sampled pays for it within the traced invocation,
 * where the trace shows it.
 *
 * Outside a deployed Lambda (npm start, SAM, tests, scripts) nothing is ever loaded.
 */
import { isRequestXRaySampled } from '@aws-lambda-powertools/commons/utils/env';

type Capture = <T>(client: T) => T;

/** Set by esbuild in deployed bundles (lib/knap-function.ts): the tracer's file, beside the bundle. */
declare const KNAP_TRACING_CHUNK: string | undefined;

const isDeployedLambda = (env: NodeJS.ProcessEnv = process.env): boolean =>
  Boolean(env.AWS_LAMBDA_FUNCTION_NAME) && !env.AWS_SAM_LOCAL;

/** Clients made before the tracer was loaded: captured when it is. */
const waiting: unknown[] = [];
let capture: Capture | undefined;
let loading: Promise<void> | undefined;

const loadTracer = async (): Promise<void> => {
  // The choice stays here, not in a helper: esbuild drops the source import only where the constant is set.
  const tracing: typeof import('./tracing.js') =
    typeof KNAP_TRACING_CHUNK === 'string'
      ? await import(new URL(KNAP_TRACING_CHUNK, import.meta.url).href)
      : await import('./tracing.js');
  capture = tracing.traced;
  for (const client of waiting.splice(0)) tracing.traced(client);
};

/**
 * Makes `client`'s calls X-Ray subsegments: at once when the tracer is loaded, else from the
 * first sampled invocation on. Outside a deployed Lambda the client is returned as it was.
 */
export const traceWhenSampled = <T>(client: T): T => {
  if (capture) return capture(client);
  if (isDeployedLambda()) waiting.push(client);
  return client;
};

/**
 * Called at the start of every invocation: loads the tracer if this invocation is sampled and
 * a client waits for it (never in a function without one, nor outside a deployed Lambda).
 */
export const loadTracerIfSampled = (): Promise<void> | undefined => {
  // Nothing to wait for, nearly always: no promise either (every request comes through here).
  if (capture || waiting.length === 0 || !isRequestXRaySampled()) return undefined;
  loading ??= loadTracer().catch((error: unknown) => {
    // Tracing must never fail a request: try again on the next sampled invocation.
    loading = undefined;
    console.warn('Could not load the X-Ray tracer', error);
  });
  return loading;
};

/** Whether this container has loaded the tracer (for tests). */
export const tracerLoaded = (): boolean => capture !== undefined;
