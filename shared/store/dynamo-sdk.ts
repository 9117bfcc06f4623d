/**
 * The AWS SDK's DynamoDB client, for the calls DynamoWire does not make: those of X-Ray-sampled
 * invocations, every call with `DYNAMODB_TRANSPORT=sdk` or where the wire cannot be sure of the
 * endpoint, and what it does not speak (table administration, a test's own commands).
 *
 * Deployed, this file is not in the bundle but beside it (in `sdk-clients.mjs`, CHUNKS of
 * scripts/lambda-bundle.mjs), imported by the first call that needs it (dynamo-client.ts): the
 * SDK is about half of a function's init (~45 ms here, docs/performance.md "Cold start"), and
 * an invocation X-Ray does not sample never needs it. So it keeps no state of its own: the
 * round-trip counter, the request scopes and the X-Ray capture come in as `SdkHooks`.
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
import type { RequestScope } from '../domain/request-scope.js';
import { traceWhenSampled } from '../lambda/sampled-tracing.js';
import { MARSHALL_OPTIONS, specOf } from './commands.js';
import { MAX_ATTEMPTS, rememberScope, type SdkHooks, scopeOf, sdkHooks } from './dynamo-calls.js';
import type { DocumentSender, DynamoSettings } from './dynamo-client.js';

/** The hooks of the process's own module (tests, `npm start`, scripts): a bundle passes its own. */
const OWN_HOOKS = sdkHooks(traceWhenSampled);

/** The SDK's client, with the request's deadline and round-trip counting as middlewares. */
export const createDynamoClient = (settings: DynamoSettings, hooks: SdkHooks = OWN_HOOKS): DynamoDBClient => {
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
    (next, context) => (args) =>
      hooks.withinDeadline(next(args), context.commandName ?? 'a command', hooks.scopeIn(context)?.deadline),
    // Outside the retry middleware: the deadline bounds all attempts together.
    { step: 'initialize', name: 'requestDeadline' },
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      hooks.beforeAttempt(context.commandName ?? 'a command', hooks.scopeIn(context));
      return next(args);
    },
    // Inside the retry middleware, before an attempt goes over the wire (and is counted).
    { step: 'finalizeRequest', priority: 'normal', name: 'attemptWithinDeadline' },
  );
  client.middlewareStack.add(
    (next, context) => (args) => hooks.countedAttempt(context.commandName ?? 'unknown', () => next(args), hooks.scopeIn(context)),
    // Inside the retry middleware, so every attempt that goes over the wire counts.
    { step: 'finalizeRequest', priority: 'low', name: 'countRoundTrips' },
  );
  return (settings.capture ?? hooks.capture)(client);
};

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

/** The SDK's side of the store's document client (dynamo-client.ts). */
export interface SdkDocuments {
  /** Sends `command` for `scope`'s request (undefined: for none), with any further arguments the SDK takes. */
  send(command: unknown, scope: RequestScope | undefined, ...rest: unknown[]): Promise<unknown>;
  destroy(): void;
}

/** lib-dynamodb's document client over the SDK's client, with the marshalling DynamoWire does too. */
export const createSdkDocuments = (settings: DynamoSettings, hooks: SdkHooks): SdkDocuments => {
  const documents = DynamoDBDocumentClient.from(createDynamoClient(settings, hooks), {
    marshallOptions: { ...MARSHALL_OPTIONS },
  });
  const send = documents.send.bind(documents) as (...args: unknown[]) => Promise<unknown>;
  return {
    send: (command, scope, ...rest) => {
      const sdkCommand = sdkCommandOf(command);
      // A command sent for a request before, and now for none, counts against nobody.
      hooks.rememberScope(sdkCommand, scope);
      return send(sdkCommand, ...rest);
    },
    destroy: () => documents.destroy(),
  };
};

/**
 * The store's sender over a lib-dynamodb client made elsewhere (a test's, with middlewares of
 * its own): every call through that client's SDK.
 */
export const sdkDocuments = (documents: DynamoDBDocumentClient): DocumentSender => ({
  send: (command) => {
    const sdkCommand = sdkCommandOf(command);
    // The request scopedDocuments tied the store's command to, for this client's middlewares too.
    if (sdkCommand !== command) rememberScope(sdkCommand, scopeOf(command));
    return documents.send(sdkCommand as never) as never;
  },
});
