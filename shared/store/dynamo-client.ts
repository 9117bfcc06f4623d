import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { RequestScope } from '../domain/request-scope.js';
import { traceWhenSampled, tracingThisInvocation } from '../lambda/sampled-tracing.js';
import { type StoreCommand, specOf } from './commands.js';
import { DynamoWire, translationOf, wireCallOf } from './dynamo-wire.js';

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
const beforeAttempt = (commandName: string, scope: RequestScope | undefined): void => {
  const deadline = scope?.deadline;
  if (deadline !== undefined && Date.now() >= deadline) throw new DeadlineExceededError(commandName);
};

/** One attempt over the wire, counted: in the process, in the request's counter, and how deep. */
const countedAttempt = async <T>(commandName: string, send: () => Promise<T>, scope?: RequestScope): Promise<T> => {
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

const MAX_ATTEMPTS = 3;

/**
 * The request a command sent through the SDK was sent for (scopedDocuments): its middlewares
 * find it by the command instance the SDK hands them, lib-dynamodb's inner command included.
 */
const commandScopes = new WeakMap<object, RequestScope>();
const scopeIn = (context: object): RequestScope | undefined => {
  const instance = (context as { __smithy_context?: { commandInstance?: object } }).__smithy_context?.commandInstance;
  return instance ? commandScopes.get(instance) : undefined;
};

const withinDeadline = async <T>(call: Promise<T>, command: string, deadline: number | undefined): Promise<T> => {
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
  /** `wire` (default): DynamoWire where it speaks the call; `sdk`: every call through the SDK. */
  transport?: 'wire' | 'sdk';
}

/** A whole number of milliseconds above 0; anything else (unset, "2s", "-1", "0") is no setting. */
const positiveWhole = (value: string | undefined): number | undefined => {
  const number = Number(value);
  return value && Number.isInteger(number) && number > 0 ? number : undefined;
};

/**
 * Where DynamoWire knows the SDK's endpoint for sure: an endpoint given to the client, or a
 * Lambda function with no endpoint in its environment (AWS_ENDPOINT_URL*, which the SDK reads
 * at its first call). Elsewhere (a laptop's profile may name an endpoint, or an account's) the
 * SDK makes every call.
 */
const wireKnowsEndpoint = (settings: DynamoSettings, env: NodeJS.ProcessEnv = process.env): boolean =>
  settings.endpoint !== undefined ||
  (Boolean(env.AWS_LAMBDA_FUNCTION_NAME) && !env.AWS_ENDPOINT_URL_DYNAMODB && !env.AWS_ENDPOINT_URL);

export const dynamoSettingsFromEnv = (env: NodeJS.ProcessEnv = process.env): DynamoSettings => ({
  endpoint: env.DYNAMODB_ENDPOINT || undefined,
  region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
  requestTimeoutMs: positiveWhole(env.DYNAMODB_TIMEOUT_MS),
  transport: env.DYNAMODB_TRANSPORT === 'sdk' ? 'sdk' : 'wire',
});

export const createDynamoClient = (settings: DynamoSettings): DynamoDBClient => {
  const config: DynamoDBClientConfig = {
    region: settings.region ?? 'us-east-1',
    maxAttempts: MAX_ATTEMPTS,
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
    (next, context) => (args) => withinDeadline(next(args), context.commandName ?? 'a command', scopeIn(context)?.deadline),
    // Outside the retry middleware: the deadline bounds all attempts together.
    { step: 'initialize', name: 'requestDeadline' },
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      beforeAttempt(context.commandName ?? 'a command', scopeIn(context));
      return next(args);
    },
    // Inside the retry middleware, before an attempt goes over the wire (and is counted).
    { step: 'finalizeRequest', priority: 'normal', name: 'attemptWithinDeadline' },
  );
  client.middlewareStack.add(
    (next, context) => (args) => countedAttempt(context.commandName ?? 'unknown', () => next(args), scopeIn(context)),
    // Inside the retry middleware, so every attempt that goes over the wire counts.
    { step: 'finalizeRequest', priority: 'low', name: 'countRoundTrips' },
  );
  return (settings.capture ?? traceWhenSampled)(client);
};

/**
 * The store's client: lib-dynamodb's, whose calls go over `DynamoWire` (a fifth of the SDK's
 * CPU per call, see dynamo-wire.ts) with the same deadline, counting and exceptions. The SDK
 * itself makes what the wire does not speak, the calls of X-Ray-sampled invocations (and of
 * clients made with a `capture`), every call where the wire cannot be sure of the endpoint,
 * and every call with `DYNAMODB_TRANSPORT=sdk` (a platform engineer's way back, no code change).
 */
export const createDocumentClient = (settings: DynamoSettings): StoreDocumentClient => {
  const client = createDynamoClient(settings);
  const documents = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  const viaSdk = documents.send.bind(documents) as (...args: unknown[]) => Promise<unknown>;
  // A client captured for X-Ray by its maker has every call recorded: only the SDK's are.
  const wire =
    (settings.transport ?? 'wire') === 'sdk' || settings.capture || !wireKnowsEndpoint(settings)
      ? undefined
      : new DynamoWire({
          client,
          maxAttempts: MAX_ATTEMPTS,
          requestTimeoutMs: settings.requestTimeoutMs,
          hooks: {
            deadlineExceeded: (commandName) => new DeadlineExceededError(commandName),
            attempt: countedAttempt,
          },
        });
  const translation = translationOf(documents.config.translateConfig);
  const wireCall = (command: unknown) => (wire && !tracingThisInvocation() ? wireCallOf(command, translation) : null);
  const send = (...args: unknown[]): Promise<unknown> => {
    const call = args.length === 1 ? wireCall(args[0]) : null;
    if (call) return (wire as DynamoWire).send(call);
    const command = sdkCommandOf(args[0]);
    // A command sent for a request before, and now for none, counts against nobody.
    rememberScope(command, undefined);
    return viaSdk(command, ...args.slice(1));
  };
  const sendWithin = (command: unknown, scope: RequestScope): Promise<unknown> => {
    const call = wireCall(command);
    if (call) return (wire as DynamoWire).send(call, scope);
    const sdkCommand = sdkCommandOf(command);
    rememberScope(sdkCommand, scope);
    return viaSdk(sdkCommand);
  };
  const destroy = documents.destroy.bind(documents);
  return Object.assign(documents, {
    send,
    [SEND_WITHIN]: sendWithin,
    destroy: () => {
      wire?.destroy();
      destroy();
    },
  }) as StoreDocumentClient;
};

/** What the store sends its commands (commands.ts) through: the document client, or one request's view of it. */
export interface DocumentSender {
  send<Input, Output>(command: StoreCommand<Input, Output>): Promise<Output>;
}

/** The document client createDocumentClient makes: lib-dynamodb's, which also takes the store's commands. */
export type StoreDocumentClient = DynamoDBDocumentClient & DocumentSender;

/** lib-dynamodb's command classes by name, for the store's commands the SDK makes after all. */
const DOCUMENT_COMMANDS: Record<string, new (input: never) => object> = {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
};

/** The command the SDK is given: lib-dynamodb's for a store command, anything else as it is. */
const sdkCommandOf = (command: unknown): unknown => {
  const spec = specOf(command);
  const DocumentCommand = spec ? DOCUMENT_COMMANDS[spec.documentCommand] : undefined;
  return DocumentCommand ? new DocumentCommand((command as { input: never }).input) : command;
};

/**
 * The store's sender over a lib-dynamodb client made elsewhere (a test's, with middlewares of
 * its own): every call through that client's SDK.
 */
export const sdkDocuments = (documents: DynamoDBDocumentClient): DocumentSender => ({
  send: (command) => documents.send(sdkCommandOf(command) as never) as never,
});

const SEND_WITHIN = Symbol('sendWithin');

/**
 * Ties a command to the request it is sent for (undefined: to none), for the SDK's middlewares
 * to find. A command is the last request's it was sent for: the store makes one per call.
 */
const rememberScope = (command: unknown, scope: RequestScope | undefined): void => {
  if (typeof command !== 'object' || command === null) return;
  // lib-dynamodb's commands run the SDK's middlewares on an inner command.
  const inner = (command as { clientCommand?: unknown }).clientCommand;
  const instance = typeof inner === 'object' && inner !== null ? inner : command;
  if (scope) commandScopes.set(instance, scope);
  else commandScopes.delete(instance);
};

/**
 * The client's calls on behalf of one request: each keeps its deadline (retries included) and
 * counts against its round trips. A client createDocumentClient did not make (a test's) is
 * given the scope through the SDK's middlewares only if it has them.
 */
export const scopedDocuments = (documents: DocumentSender, scope: RequestScope): DocumentSender => {
  const within = (documents as { [SEND_WITHIN]?: (command: unknown, scope: RequestScope) => Promise<unknown> })[SEND_WITHIN];
  const send = within
    ? (command: unknown) => within(command, scope)
    : (command: unknown) => {
        rememberScope(command, scope);
        return documents.send(command as never);
      };
  return { send } as DocumentSender;
};
