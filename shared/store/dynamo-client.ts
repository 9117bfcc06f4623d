/**
 * The store's DynamoDB client: its commands (commands.ts) over DynamoWire, and the SDK's client
 * (dynamo-sdk.ts) loaded by the first call the wire does not make.
 */

import { environmentCredentials, lambdaTarget } from '../aws/environment.js';
import type { RequestScope } from '../domain/request-scope.js';
import { loadSdkClients } from '../lambda/load-sdk-clients.js';
import { traceWhenSampled, tracingThisInvocation, wantTracer } from '../lambda/sampled-tracing.js';
import { MARSHALL_OPTIONS, type StoreCommand } from './commands.js';
import { countedAttempt, DeadlineExceededError, MAX_ATTEMPTS, rememberScope, sdkHooks } from './dynamo-calls.js';
import type { SdkDocuments } from './dynamo-sdk.js';
import { asOwnException, DynamoWire, translationOf, wireCallOf } from './dynamo-wire.js';

export { DeadlineExceededError, roundTrips } from './dynamo-calls.js';

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

export const dynamoSettingsFromEnv = (env: NodeJS.ProcessEnv = process.env): DynamoSettings => ({
  endpoint: env.DYNAMODB_ENDPOINT || undefined,
  region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
  requestTimeoutMs: positiveWhole(env.DYNAMODB_TIMEOUT_MS),
  transport: env.DYNAMODB_TRANSPORT === 'sdk' ? 'sdk' : 'wire',
});

/**
 * Where DynamoWire sends its calls and what it signs them with, where it knows both as the SDK
 * would: an endpoint given to the client (signed with the environment's credentials, or any,
 * as a local DynamoDB takes), or a Lambda function's region with no endpoint in its environment
 * (AWS_ENDPOINT_URL*, which the SDK reads) and its credentials. Elsewhere (a laptop's profile
 * may name an endpoint, or credentials) the SDK makes every call.
 */
export const wireTarget = (settings: DynamoSettings, env: NodeJS.ProcessEnv = process.env) => {
  const region = settings.region ?? 'us-east-1';
  if (settings.endpoint !== undefined) {
    const credentials = env.AWS_ACCESS_KEY_ID
      ? environmentCredentials(env)
      : async () => ({ accessKeyId: 'local', secretAccessKey: 'local' });
    return credentials ? { url: new URL(settings.endpoint), region, credentials } : undefined;
  }
  return lambdaTarget('dynamodb', region, env);
};

/** What the store sends its commands (commands.ts) through: the document client, or one request's view of it. */
export interface DocumentSender {
  send<Input, Output>(command: StoreCommand<Input, Output>): Promise<Output>;
}

/** A command of the SDK's own (lib-dynamodb's or the client's): a test's or a script's, made through the SDK. */
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

const SEND_WITHIN = Symbol('sendWithin');

/**
 * The store's client. Its commands go over `DynamoWire` (a fifth of the SDK's CPU per call, see
 * dynamo-wire.ts) with the same deadline, counting and exceptions as the SDK's. The SDK makes
 * what the wire does not speak, the calls of X-Ray-sampled invocations (and every call of a
 * client made with a `capture`), every call where the wire cannot be sure of the endpoint, and
 * every call with `DYNAMODB_TRANSPORT=sdk` (a platform engineer's way back, no code change): it
 * is loaded by the first of those, so a function that never needs it never pays for it.
 */
export const createDocumentClient = (settings: DynamoSettings): StoreDocumentClient => {
  // A client captured for X-Ray by its maker has every call recorded: only the SDK's are.
  const target = (settings.transport ?? 'wire') === 'sdk' || settings.capture ? undefined : wireTarget(settings);
  const wire =
    target &&
    new DynamoWire({
      ...target,
      maxAttempts: MAX_ATTEMPTS,
      requestTimeoutMs: settings.requestTimeoutMs,
      hooks: {
        deadlineExceeded: (commandName) => new DeadlineExceededError(commandName),
        attempt: countedAttempt,
      },
    });
  // Sampled invocations load the tracer, and their calls go to the SDK's client, captured by it.
  if (!settings.capture) wantTracer();
  const translation = translationOf({ marshallOptions: MARSHALL_OPTIONS });
  const hooks = sdkHooks(traceWhenSampled);
  let sdk: Promise<SdkDocuments> | undefined;
  const loaded = (): Promise<SdkDocuments> => {
    sdk ??= loadSdkClients().then(
      (module) => module.createSdkDocuments(settings, hooks),
      (error: unknown) => {
        sdk = undefined;
        throw error;
      },
    );
    return sdk;
  };
  /** Through the SDK; a call it takes only to be traced goes over the wire when the SDK cannot load (tracing never fails a request). */
  const viaSdk = async (command: unknown, scope: RequestScope | undefined, rest: unknown[]): Promise<unknown> => {
    let documents: SdkDocuments;
    try {
      documents = await loaded();
    } catch (error) {
      const call = wire && rest.length === 0 ? wireCallOf(command, translation) : null;
      if (!call) throw error;
      console.warn('Could not load the SDK client for a traced call; it goes over the wire, untraced', error);
      return (wire as DynamoWire).send(call, scope);
    }
    try {
      return await documents.send(command, scope, ...rest);
    } catch (error) {
      throw asOwnException(error);
    }
  };
  const wireCall = (command: unknown) => (wire && !tracingThisInvocation() ? wireCallOf(command, translation) : null);
  const send = (command: unknown, ...rest: unknown[]): Promise<unknown> => {
    const call = rest.length === 0 ? wireCall(command) : null;
    return call ? (wire as DynamoWire).send(call) : viaSdk(command, undefined, rest);
  };
  const sendWithin = (command: unknown, scope: RequestScope): Promise<unknown> => {
    const call = wireCall(command);
    return call ? (wire as DynamoWire).send(call, scope) : viaSdk(command, scope, []);
  };
  return {
    send,
    [SEND_WITHIN]: sendWithin,
    destroy: () => {
      wire?.destroy();
      void sdk?.then((documents) => documents.destroy()).catch(() => undefined);
    },
  } as StoreDocumentClient;
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
