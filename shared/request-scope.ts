import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the request being handled carries across its awaits, in ONE AsyncLocalStorage: each
 * instance in use makes every promise of the process pay for its propagation (Node's promise
 * hooks), so the correlation id, the deadline and the round-trip counter share a store.
 */
export interface RequestScope {
  /**
   * API Gateway's request id (`requestContext.requestId`, what its access log records as
   * `requestId`), returned to the caller as `X-Request-Id` and added to every log line written
   * on the request's behalf. A store rather than a logger key: under `npm start` one process
   * serves requests at once.
   */
  correlationId?: string;
  /**
   * When the request must have its answer (epoch ms). Every DynamoDB call made on its behalf,
   * retries included, gives up by then, so a stalled or throttling DynamoDB becomes a 503
   * inside the Lambda timeout instead of a hung invocation.
   */
  deadline?: number;
  /** Counts the DynamoDB calls made on its behalf (the local server's X-DynamoDB-Round-Trips). */
  roundTrips?: { count: number };
  /**
   * The function doing the work: under `npm start` one process runs every function and the
   * background jobs, so a line takes its function from here, not from the last invocation.
   */
  functionName?: string;
  /** Its invocation's id, for the same reason (`function_request_id` of a line). */
  requestId?: string;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `work` with `fields` added to the current scope (an outer one's fields stay unless replaced). */
export const inRequestScope = <T>(fields: RequestScope, work: () => T): T =>
  storage.run({ ...storage.getStore(), ...fields }, work);

/** The current request's scope; undefined outside a request. */
export const currentRequest = (): RequestScope | undefined => storage.getStore();

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** The keys every log line of the current work carries: its correlation id and function (none outside any). */
export const correlationKeys = (): Record<string, string> | undefined => {
  const scope = storage.getStore();
  if (!scope) return undefined;
  const keys: Record<string, string> = {};
  if (scope.correlationId !== undefined) keys.correlation_id = scope.correlationId;
  if (scope.functionName !== undefined) keys.function_name = scope.functionName;
  if (scope.requestId !== undefined) keys.function_request_id = scope.requestId;
  return Object.keys(keys).length > 0 ? keys : undefined;
};
