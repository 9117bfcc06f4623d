/**
 * What DynamoDB calls share, through DynamoWire or the SDK: the process's round-trip count,
 * the request's deadline, which request an SDK command was sent for. Kept apart from the SDK
 * (dynamo-sdk.ts), which deployed functions load only when it makes a call: that file is built
 * beside the bundle with copies of what it imports, so whatever holds state (the counter, the
 * scopes) reaches it as `SdkHooks`, from the bundle's one copy.
 */
import { settleBy } from '../deadlines.js';
import type { RequestScope } from '../domain/request-scope.js';

/**
 * Every DynamoDB call this process makes, by operation; read by tests and the benchmark.
 * `depth`: the longest chain of calls each made after the one before it had answered, so
 * calls side by side count once (tests assert how deep a request goes).
 */
export const roundTrips = {
  total: 0,
  byCommand: {} as Record<string, number>,
  depth: 0,
  /** The depth of the deepest call that has answered since the reset. */
  answeredDepth: 0,
  reset(): void {
    this.total = 0;
    this.byCommand = {};
    this.depth = 0;
    this.answeredDepth = 0;
  },
};

export class DeadlineExceededError extends Error {
  constructor(command: string) {
    super(`DynamoDB did not answer ${command} before the request deadline`);
    this.name = 'TimeoutError';
  }
}

/**
 * Throws when the request's deadline has passed: a retry whose turn comes after the request
 * was answered must not reach the table (a write landing after "not stored" would surprise
 * everyone).
 */
export const beforeAttempt = (commandName: string, scope: RequestScope | undefined): void => {
  const deadline = scope?.deadline;
  if (deadline !== undefined && Date.now() >= deadline) throw new DeadlineExceededError(commandName);
};

/** One attempt over the wire, counted: in the process, in the request's counter, and how deep. */
export const countedAttempt = async <T>(commandName: string, send: () => Promise<T>, scope?: RequestScope): Promise<T> => {
  roundTrips.total += 1;
  roundTrips.byCommand[commandName] = (roundTrips.byCommand[commandName] ?? 0) + 1;
  const counter = scope?.roundTrips;
  if (counter) counter.count += 1;
  const depth = roundTrips.answeredDepth + 1;
  roundTrips.depth = Math.max(roundTrips.depth, depth);
  try {
    return await send();
  } finally {
    roundTrips.answeredDepth = Math.max(roundTrips.answeredDepth, depth);
  }
};

export const MAX_ATTEMPTS = 3;

/**
 * The request a command sent through the SDK was sent for (scopedDocuments): its middlewares
 * find it by the command instance the SDK hands them, lib-dynamodb's inner command included.
 */
const commandScopes = new WeakMap<object, RequestScope>();
export const scopeIn = (context: object): RequestScope | undefined => {
  const instance = (context as { __smithy_context?: { commandInstance?: object } }).__smithy_context?.commandInstance;
  return instance ? commandScopes.get(instance) : undefined;
};

/** A call bounded by the request's deadline, on the process's watch list as DynamoWire's calls are. */
export const withinDeadline = <T>(call: Promise<T>, command: string, deadline: number | undefined): Promise<T> =>
  settleBy(call, deadline, () => new DeadlineExceededError(command));

/**
 * Ties a command to the request it is sent for (undefined: to none), for the SDK's middlewares
 * to find. A command is the last request's it was sent for: the store makes one per call.
 */
export const rememberScope = (command: unknown, scope: RequestScope | undefined): void => {
  if (typeof command !== 'object' || command === null) return;
  // lib-dynamodb's commands run the SDK's middlewares on an inner command.
  const inner = (command as { clientCommand?: unknown }).clientCommand;
  const instance = typeof inner === 'object' && inner !== null ? inner : command;
  if (scope) commandScopes.set(instance, scope);
  else commandScopes.delete(instance);
};

/** The request a command was last sent for (rememberScope), if any. */
export const scopeOf = (command: object): RequestScope | undefined => commandScopes.get(command);

/** What the SDK's client needs of the bundle's own state: its middlewares' counting, deadline and scopes. */
export interface SdkHooks {
  scopeIn: typeof scopeIn;
  rememberScope: typeof rememberScope;
  withinDeadline: typeof withinDeadline;
  beforeAttempt: typeof beforeAttempt;
  countedAttempt: typeof countedAttempt;
  /** Records a client's calls in X-Ray (sampled-tracing.ts's, or the caller's own). */
  capture: <T>(client: T) => T;
}

/** This module's hooks, with `capture` for X-Ray. */
export const sdkHooks = (capture: SdkHooks['capture']): SdkHooks => ({
  scopeIn,
  rememberScope,
  withinDeadline,
  beforeAttempt,
  countedAttempt,
  capture,
});
