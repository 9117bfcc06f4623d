import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { traceWhenSampled } from '../lambda/sampled-tracing.js';
import { currentRequest } from '../request-scope.js';

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

const withinDeadline = async <T>(call: Promise<T>, command: string): Promise<T> => {
  const deadline = currentRequest()?.deadline;
  if (deadline === undefined) return call;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceededError(command)), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([call, expired]);
  } finally {
    clearTimeout(timer);
  }
};

export interface DynamoSettings {
  endpoint?: string;
  /** Records the client's calls in X-Ray; by default the Lambda's tracer once an invocation is sampled, and nothing elsewhere. */
  capture?: <T>(client: T) => T;
  region?: string;
  /** Bound each call so a stalled DynamoDB gives a 5xx well inside the Lambda timeout. */
  requestTimeoutMs?: number;
}

export const dynamoSettingsFromEnv = (env: NodeJS.ProcessEnv = process.env): DynamoSettings => ({
  endpoint: env.DYNAMODB_ENDPOINT || undefined,
  region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
  requestTimeoutMs: env.DYNAMODB_TIMEOUT_MS ? Number(env.DYNAMODB_TIMEOUT_MS) : undefined,
});

export const createDynamoClient = (settings: DynamoSettings): DynamoDBClient => {
  const config: DynamoDBClientConfig = {
    region: settings.region ?? 'us-east-1',
    maxAttempts: 3,
  };
  if (settings.endpoint) {
    config.endpoint = settings.endpoint;
    // A local DynamoDB accepts any credentials; don't make developers configure AWS.
    if (!process.env.AWS_ACCESS_KEY_ID) {
      config.credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
    }
  }
  if (settings.requestTimeoutMs) {
    config.requestHandler = { requestTimeout: settings.requestTimeoutMs, connectionTimeout: settings.requestTimeoutMs };
  }
  const client = new DynamoDBClient(config);
  client.middlewareStack.add(
    (next, context) => (args) => withinDeadline(next(args), context.commandName ?? 'a command'),
    // Outside the retry middleware: the deadline bounds all attempts together.
    { step: 'initialize', name: 'requestDeadline' },
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      // A retry whose turn comes after the request was answered must not reach the table: a
      // write that lands after "not stored" (or "may not have been") would surprise everyone.
      const deadline = currentRequest()?.deadline;
      if (deadline !== undefined && Date.now() >= deadline) throw new DeadlineExceededError(context.commandName ?? 'a command');
      return next(args);
    },
    // Inside the retry middleware, before an attempt goes over the wire (and is counted).
    { step: 'finalizeRequest', priority: 'normal', name: 'attemptWithinDeadline' },
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      roundTrips.total += 1;
      const name = context.commandName ?? 'unknown';
      roundTrips.byCommand[name] = (roundTrips.byCommand[name] ?? 0) + 1;
      const counter = currentRequest()?.roundTrips;
      if (counter) counter.count += 1;
      const depth = roundTrips.answeredDepth + 1;
      roundTrips.depth = Math.max(roundTrips.depth, depth);
      try {
        return await next(args);
      } finally {
        roundTrips.answeredDepth = Math.max(roundTrips.answeredDepth, depth);
      }
    },
    // Inside the retry middleware, so every attempt that goes over the wire counts.
    { step: 'finalizeRequest', priority: 'low', name: 'countRoundTrips' },
  );
  return (settings.capture ?? traceWhenSampled)(client);
};

export const createDocumentClient = (settings: DynamoSettings): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(createDynamoClient(settings), { marshallOptions: { removeUndefinedValues: true } });
