/**
 * The store's DynamoDB client: the AWS SDK v3's (`@aws-sdk/client-dynamodb`, with lib-dynamodb's
 * document client over it), the only way this project reaches DynamoDB.
 *
 * Every call is bounded twice over:
 * - each attempt by the HTTP handler (shared/lambda/bounded-http.ts): `connectionTimeout`, and
 *   `requestTimeout` with `throwOnRequestTimeout`, without which the SDK only logs a warning
 *   and waits on (a DynamoDB that accepts the connection and never answers then held a call
 *   until the Lambda timeout); the SDK retries a timed-out attempt, `MAX_ATTEMPTS` in all;
 * - each call made for a request (scopedDocuments) by the request's deadline: the call fails
 *   with DeadlineExceededError (a TimeoutError: the route answers 503 with Retry-After) and
 *   the SDK's `abortSignal` ends the attempt under way and any retry still to come, so nothing
 *   reaches the table after the request was answered.
 *
 * No middleware of ours on the SDK's stack (each cost 20-40% of a call's CPU): the attempts are
 * counted by the HTTP handler (roundTrips, X-DynamoDB-Round-Trips under `npm start`), which
 * learns the request's counter from the options the call was sent with.
 *
 * X-Ray: deployed, the client is captured by the tracer once a container's first sampled
 * invocation loads it (shared/lambda/sampled-tracing.ts); the same client, bounded the same way.
 */
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
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { settleBy } from '../deadlines.js';
import type { RequestScope } from '../domain/request-scope.js';
import { boundedHttpHandler } from '../lambda/bounded-http.js';
import { traceWhenSampled } from '../lambda/sampled-tracing.js';
import { MARSHALL_OPTIONS, type StoreCommand, specOf } from './commands.js';
import { countedAttempt, DeadlineExceededError, MAX_ATTEMPTS } from './dynamo-calls.js';

export { DeadlineExceededError, roundTrips } from './dynamo-calls.js';

export interface DynamoSettings {
  endpoint?: string;
  /** Records the client's calls in X-Ray; by default the Lambda's tracer once an invocation is sampled, and nothing elsewhere. */
  capture?: <T>(client: T) => T;
  region?: string;
  /** Each attempt's bound (connection, then answer): DEFAULT_ATTEMPT_TIMEOUT_MS when not given. */
  requestTimeoutMs?: number;
}

/** Each attempt's bound when none is set: DynamoDB answers in milliseconds; three attempts fit any route's deadline. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 2_000;

/** A whole number of milliseconds above 0; anything else (unset, "2s", "-1", "0") is no setting. */
const positiveWhole = (value: string | undefined): number | undefined => {
  const number = Number(value);
  return value && Number.isInteger(number) && number > 0 ? number : undefined;
};

export const dynamoSettingsFromEnv = (env: NodeJS.ProcessEnv = process.env): DynamoSettings => ({
  endpoint: env.DYNAMODB_ENDPOINT || undefined,
  region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
  requestTimeoutMs: positiveWhole(env.DYNAMODB_TIMEOUT_MS),
});

/** What the store sends its commands (commands.ts) through: the document client, or one request's view of it. */
export interface DocumentSender {
  send<Input, Output>(command: StoreCommand<Input, Output>): Promise<Output>;
}

/** A command of the SDK's own (lib-dynamodb's or the client's): a test's or a script's. */
interface SdkCommand<Output> {
  readonly input: object;
  resolveMiddleware(...args: never[]): (args: never) => Promise<{ output: Output }>;
}

/** The client createDocumentClient makes. */
export interface StoreDocumentClient extends DocumentSender {
  send<Input, Output>(command: StoreCommand<Input, Output>): Promise<Output>;
  send<Output>(command: SdkCommand<Output>, ...rest: unknown[]): Promise<Output>;
  destroy(): void;
}

/** Where a call's options carry the request's round-trip counter to the HTTP handler. */
const COUNTER = Symbol('knap.roundTripCounter');

interface CallOptions {
  abortSignal?: AbortSignal;
  [COUNTER]?: { count: number };
}

/** `DynamoDB_20120810.GetItem` → `GetItemCommand`, the SDK's command name, once per operation. */
const commandNames = new Map<string, string>();
const commandNameOf = (target: string | undefined): string => {
  if (!target) return 'unknown';
  let name = commandNames.get(target);
  if (name === undefined) {
    name = `${target.slice(target.indexOf('.') + 1)}Command`;
    commandNames.set(target, name);
  }
  return name;
};

/** The SDK's Node.js handler, counting each attempt it sends (roundTrips; the request's counter). */
class CountingHttpHandler extends NodeHttpHandler {
  override handle(request: Parameters<NodeHttpHandler['handle']>[0], options?: Parameters<NodeHttpHandler['handle']>[1]) {
    const name = commandNameOf(request.headers['x-amz-target'] ?? request.headers['X-Amz-Target']);
    return countedAttempt(name, () => super.handle(request, options), (options as CallOptions | undefined)?.[COUNTER]);
  }
}

/** The SDK's client, bounded (boundedHttpHandler, MAX_ATTEMPTS), counting its attempts, captured for X-Ray. */
export const createDynamoClient = (settings: DynamoSettings): DynamoDBClient => {
  const config: DynamoDBClientConfig = {
    region: settings.region ?? 'us-east-1',
    maxAttempts: MAX_ATTEMPTS,
    requestHandler: boundedHttpHandler(settings.requestTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS, CountingHttpHandler),
  };
  if (settings.endpoint) {
    config.endpoint = settings.endpoint;
    // A local DynamoDB accepts any credentials; don't make developers configure AWS.
    if (!process.env.AWS_ACCESS_KEY_ID) {
      config.credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
    }
  }
  return (settings.capture ?? traceWhenSampled)(new DynamoDBClient(config));
};

/** lib-dynamodb's command classes by name, for the store's commands. */
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

const SEND_WITHIN = Symbol('sendWithin');

type Send = (command: unknown, options?: CallOptions) => Promise<unknown>;

/**
 * `command` for `scope`'s request: counted against its counter, and within its deadline,
 * retries included; ended at once when its `stop` aborts. A call whose deadline has passed, or
 * whose work was stopped, is not sent at all.
 */
const sendWithin = (send: Send, command: unknown, scope: RequestScope): Promise<unknown> => {
  const { deadline, roundTrips: counter, stop } = scope;
  if (deadline === undefined && stop === undefined) return send(command, counter ? { [COUNTER]: counter } : undefined);
  const name = (specOf(command)?.operation ?? 'a command') as string;
  if ((deadline !== undefined && Date.now() >= deadline) || stop?.aborted) return Promise.reject(new DeadlineExceededError(name));
  const controller = new AbortController();
  const options: CallOptions = { abortSignal: controller.signal };
  if (counter) options[COUNTER] = counter;
  const call = send(command, options);
  return settleBy(stop ? stoppable(call, stop, controller, name) : call, deadline, () => {
    // Ends the attempt under way and any retry to come.
    controller.abort();
    return new DeadlineExceededError(name);
  });
};

/** `call`, failed (and its attempt aborted) as soon as `stop` aborts. */
const stoppable = <T>(call: Promise<T>, stop: AbortSignal, controller: AbortController, name: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const onStop = () => {
      controller.abort();
      reject(new DeadlineExceededError(name));
    };
    stop.addEventListener('abort', onStop, { once: true });
    call.then(
      (value) => {
        stop.removeEventListener('abort', onStop);
        resolve(value);
      },
      (error: unknown) => {
        stop.removeEventListener('abort', onStop);
        reject(error);
      },
    );
  });

/** The store's client: lib-dynamodb's document client over createDynamoClient's. */
export const createDocumentClient = (settings: DynamoSettings): StoreDocumentClient => {
  const documents = DynamoDBDocumentClient.from(createDynamoClient(settings), {
    // A copy: lib-dynamodb fills in its defaults on the object it is given.
    marshallOptions: { ...MARSHALL_OPTIONS },
  });
  const sdkSend = documents.send.bind(documents) as (command: unknown, ...rest: unknown[]) => Promise<unknown>;
  const send: Send = (command, options) => (options ? sdkSend(sdkCommandOf(command), options) : sdkSend(sdkCommandOf(command)));
  return {
    send: (command: unknown, ...rest: unknown[]) => sdkSend(sdkCommandOf(command), ...rest),
    [SEND_WITHIN]: (command: unknown, scope: RequestScope) => sendWithin(send, command, scope),
    destroy: () => documents.destroy(),
  } as unknown as StoreDocumentClient;
};

/**
 * The store's sender over a lib-dynamodb client made elsewhere (a test's, with middlewares of
 * its own): every call through that client.
 */
export const sdkDocuments = (documents: DynamoDBDocumentClient): DocumentSender => {
  const sdkSend = documents.send.bind(documents) as (command: unknown, ...rest: unknown[]) => Promise<unknown>;
  const send: Send = (command, options) => (options ? sdkSend(sdkCommandOf(command), options) : sdkSend(sdkCommandOf(command)));
  return {
    send: (command: unknown) => send(command),
    [SEND_WITHIN]: (command: unknown, scope: RequestScope) => sendWithin(send, command, scope),
  } as unknown as DocumentSender;
};

/**
 * The client's calls on behalf of one request: each keeps its deadline (retries included) and
 * counts against its round trips. A sender made neither here nor by sdkDocuments (a test's
 * fake) is used as it is.
 */
export const scopedDocuments = (documents: DocumentSender, scope: RequestScope): DocumentSender => {
  const within = (documents as { [SEND_WITHIN]?: (command: unknown, scope: RequestScope) => Promise<unknown> })[SEND_WITHIN];
  if (!within) return documents;
  return { send: (command: unknown) => within(command, scope) } as DocumentSender;
};
