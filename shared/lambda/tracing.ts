/**
 * X-Ray through Powertools Tracer, for the DynamoDB client only: each call is a subsegment
 * of the invocation's trace (operation, table, retries, latency, throttles), which Lambda
 * starts when the function has active tracing (lib/knap-function.ts).
 *
 * What reaches a trace: the X-Ray SDK's fixed list of request fields per DynamoDB operation
 * (table name, consistent read, projection, counts, consumed capacity), never keys or
 * items, so no token hash or secret hash; no handler response (no `captureLambdaHandler`,
 * whose default would record the token endpoint's answer) and no outgoing HTTP request
 * (`captureHTTPsRequests: false`: webhook URLs are the customers' own).
 *
 * Deployed, this module is not in the bundle but beside it (tracing.mjs): it costs +124 KB and
 * about 20 ms to import, which only a container's first sampled invocation pays
 * (shared/lambda/sampled-tracing.ts), not every cold start.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';

let tracer: Tracer | undefined;

export const lambdaTracer = (): Tracer => {
  tracer ??= new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'knap-api', captureHTTPsRequests: false });
  return tracer;
};

/** Traces the client's calls when running in Lambda with tracing on; anywhere else it is returned as it was. */
export const traced = <T>(client: T): T => lambdaTracer().captureAWSv3Client(client as never) as T;
