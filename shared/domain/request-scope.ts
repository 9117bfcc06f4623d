/**
 * What the request being handled carries to the code working on its behalf: handed over
 * explicitly (apiHandler gives each request deps bound to its scope, see shared/scoped-deps.ts's
 * scopedDeps), not through an AsyncLocalStorage, whose promise hooks would make every promise
 * of the process pay (about 0.1 ms of a 0.7 ms request in the route bench; docs/performance.md).
 */
export interface RequestScope {
  /**
   * API Gateway's request id (`requestContext.requestId`, what its access log records as
   * `requestId`), returned to the caller as `X-Request-Id` and added to every log line written
   * on the request's behalf.
   */
  correlationId?: string;
  /**
   * When the request must have its answer (epoch ms). Every DynamoDB call made on its behalf,
   * retries included, gives up by then, so a stalled or throttling DynamoDB becomes a 503
   * inside the Lambda timeout instead of a hung invocation.
   */
  deadline?: number;
  /**
   * Background work only (`npm start`'s timers and queue): aborted when the process stops, which
   * ends the work's DynamoDB calls under way at once (DeadlineExceededError), so a stalled
   * DynamoDB cannot hold a SIGTERM up for the rest of their deadline.
   */
  stop?: AbortSignal;
  /** Counts the DynamoDB calls made on its behalf (the local server's X-DynamoDB-Round-Trips). */
  roundTrips?: { count: number };
  /**
   * The function doing the work: under `npm start` one process runs every function and the
   * background jobs, so a line takes its function from here, not from the last invocation.
   */
  functionName?: string;
  /** Its invocation's id, for the same reason (`function_request_id` of a line). */
  requestId?: string;
  /** Its function's ARN, for the same reason (`function_arn` of a line). */
  functionArn?: string;
}

/** The keys every log line of this work carries: its correlation id and function (none when it has none). */
export const correlationKeys = (scope: RequestScope | undefined): Record<string, string> | undefined => {
  if (!scope) return undefined;
  const keys: Record<string, string> = {};
  if (scope.correlationId !== undefined) keys.correlation_id = scope.correlationId;
  if (scope.functionName !== undefined) keys.function_name = scope.functionName;
  if (scope.requestId !== undefined) keys.function_request_id = scope.requestId;
  if (scope.functionArn !== undefined) keys.function_arn = scope.functionArn;
  return Object.keys(keys).length > 0 ? keys : undefined;
};
