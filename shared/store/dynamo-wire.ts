/**
 * DynamoDB's JSON protocol spoken directly: the store's commands (commands.ts) marshalled as
 * lib-dynamodb would, signed with SigV4 by `aws4` (synchronous, no promise per step), posted
 * over a keep-alive agent, without the SDK's client.
 *
 * Why not `client.send`: per call, the SDK's middleware stack (schema serde, endpoint rules,
 * retry tokens, user agent, log filters, per-command stack resolution) costs about five times
 * the call itself: `npm run bench -- --wire` prints both, side by side on one dynalite. Every
 * request makes one to four calls, so that was a third to a half of the server's CPU
 * (docs/performance.md). And a function whose calls all go here never loads the SDK, about
 * half of its cold start (dynamo-sdk.ts).
 *
 * What the SDK did that matters is kept: the endpoint its rules give (shared/aws/environment.ts,
 * held equal to them by a test), the credentials of a Lambda's environment (fetched again near their
 * expiry), retries of throttling, 5xx and network errors with its jittered backoff, its
 * exception classes (so `instanceof ConditionalCheckFailedException` and `error.Item` work
 * unchanged). What this does not speak (another operation, a call with options, the calls of an
 * X-Ray-sampled invocation) goes to the SDK (dynamo-client.ts).
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import {
  ConditionalCheckFailedException,
  DynamoDBServiceException,
  IdempotentParameterMismatchException,
  InternalServerError,
  InvalidEndpointException,
  ItemCollectionSizeLimitExceededException,
  ProvisionedThroughputExceededException,
  ReplicatedWriteConflictException,
  RequestLimitExceeded,
  ResourceNotFoundException,
  ThrottlingException,
  TransactionCanceledException,
  TransactionConflictException,
  TransactionInProgressException,
} from '@aws-sdk/client-dynamodb';
import { marshall, type marshallOptions, unmarshall, type unmarshallOptions } from '@aws-sdk/util-dynamodb';
import {
  DEFAULT_RETRY_DELAY_BASE,
  INITIAL_RETRY_TOKENS,
  isThrottlingError,
  isTransientError,
  MAXIMUM_RETRY_DELAY,
  NO_RETRY_INCREMENT,
  RETRY_COST,
  THROTTLING_RETRY_DELAY_BASE,
  TIMEOUT_RETRY_COST,
} from '@smithy/core/retry';
import aws4 from 'aws4';
import type { AwsCredentialIdentity } from '../aws/environment.js';
import { errorTypeName, type PostAnswer, postOnce } from '../aws/post.js';
import { specOf } from './commands.js';

/** Names this client in DynamoDB's request logs (the SDK's own names the SDK and its version). */
const USER_AGENT = 'knap-api dynamo-wire (aws4)';

type KeyNodes = Record<string, unknown> | unknown[] | null;
type AttributeMap = Record<string, unknown>;

/** Where a call goes and what it sends: null when the SDK must make it. */
export interface WireCall {
  operation: string;
  body: AttributeMap;
  outputKeyNodes: KeyNodes | undefined;
  /** Set for lib-dynamodb's commands: how the members `outputKeyNodes` names are turned into plain values. */
  unmarshall: ((value: unknown) => unknown) | undefined;
}

/** The document client's (un)marshalling settings, with lib-dynamodb's defaults filled in as it does. */
export interface TranslateConfig {
  marshallOptions?: marshallOptions;
  unmarshallOptions?: unmarshallOptions;
}

/**
 * lib-dynamodb's key-node walk (its `marshallInput`/`unmarshallOutput`, which it does not
 * export): `{}` converts every value of an object, `[]` every member, `{ '*': n }` goes a level
 * down, `null` converts the node itself, other keys pick the members named.
 */
const walk = (obj: unknown, convert: (value: unknown) => unknown, nodes: KeyNodes | undefined): unknown => {
  if (obj === undefined) return undefined;
  if (nodes === null || nodes === undefined) return convert(obj);
  if (Array.isArray(nodes)) return convertAll(obj, convert);
  const keys = Object.keys(nodes);
  if (keys.length === 0) return convertAll(obj, convert);
  if (keys.length === 1 && keys[0] === '*') {
    const next = nodes['*'] as KeyNodes;
    if (Array.isArray(obj)) return obj.map((value) => walk(value, convert, next));
    const out: AttributeMap = {};
    for (const key in obj as AttributeMap) {
      if (Object.hasOwn(obj as AttributeMap, key)) out[key] = walk((obj as AttributeMap)[key], convert, next);
    }
    return out;
  }
  return convertSome(obj as AttributeMap, convert, nodes);
};

// Own keys by for-in, not Object.entries: an item's every attribute would cost an array.
const convertAll = (obj: unknown, convert: (value: unknown) => unknown): unknown => {
  if (Array.isArray(obj)) return obj.map((value) => walk(value, convert, null));
  const out: AttributeMap = {};
  for (const key in obj as AttributeMap) {
    if (!Object.hasOwn(obj as AttributeMap, key)) continue;
    const converted = walk((obj as AttributeMap)[key], convert, null);
    if (converted !== undefined) out[key] = converted;
  }
  return out;
};

const convertSome = (obj: AttributeMap, convert: (value: unknown) => unknown, nodes: Record<string, unknown>): AttributeMap => {
  const out: AttributeMap = { ...obj };
  for (const [key, next] of Object.entries(nodes)) {
    const converted = walk(obj[key], convert, next as KeyNodes);
    if (converted !== undefined) out[key] = converted;
  }
  return out;
};

/** The top level of an input or output: only the members its key nodes name (lib-dynamodb's `processKeysInObj`). */
const convertTop = (obj: AttributeMap, convert: (value: unknown) => unknown, nodes: KeyNodes | undefined): AttributeMap =>
  nodes && !Array.isArray(nodes) ? convertSome(obj, convert, nodes) : obj;

/** How a document client turns plain values into attribute values and back. */
export interface Translation {
  marshall(value: unknown): unknown;
  unmarshall(value: unknown): unknown;
}

/** A document client's settings as functions, with lib-dynamodb's defaults filled in as it does: made once per client, not per call. */
export const translationOf = (translate: TranslateConfig = {}): Translation => {
  const marshallWith = {
    ...translate.marshallOptions,
    convertTopLevelContainer: translate.marshallOptions?.convertTopLevelContainer ?? true,
  };
  const unmarshallWith = {
    ...translate.unmarshallOptions,
    convertWithoutMapWrapper: translate.unmarshallOptions?.convertWithoutMapWrapper ?? true,
  };
  return {
    marshall: (value) => marshall(value as never, marshallWith),
    unmarshall: (value) => unmarshall(value as never, unmarshallWith),
  };
};

/** The wire call for `command`, or null when it is not one of the store's (commands.ts). */
export const wireCallOf = (command: unknown, translation: Translation): WireCall | null => {
  const spec = specOf(command);
  if (!spec) return null;
  return {
    operation: spec.operation,
    body: convertTop((command as { input: AttributeMap }).input, translation.marshall, spec.inputKeyNodes as KeyNodes),
    outputKeyNodes: spec.outputKeyNodes as KeyNodes,
    unmarshall: translation.unmarshall,
  };
};

/** What a call answered, unmarshalled as lib-dynamodb would when the command was one of its own. */
const outputOf = (call: WireCall, parsed: AttributeMap, metadata: DynamoDBServiceException['$metadata']) => {
  const output = call.unmarshall ? convertTop(parsed, call.unmarshall, call.outputKeyNodes) : parsed;
  // $metadata first: a literal that starts with a spread and adds a key is slow on Node.js 20.
  return { $metadata: metadata, ...output };
};

/**
 * Binary attributes travel as base64 (the JSON protocol); the SDK hands them over as bytes.
 * A replacer or reviver makes JSON's native pass call back for every value, so they run only
 * where bytes can be: a request holding a Uint8Array, an answer whose text has a B or BS.
 */
const holdsBytes = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null) return false;
  if (value instanceof Uint8Array) return true;
  if (Array.isArray(value)) {
    for (const member of value) if (holdsBytes(member)) return true;
    return false;
  }
  // for-in, not Object.values: a PutItem's body is some twenty objects, each an array less.
  for (const key in value) {
    if (Object.hasOwn(value, key) && holdsBytes((value as Record<string, unknown>)[key])) return true;
  }
  return false;
};
const mayHoldBytes = (text: string): boolean => text.includes('"B":') || text.includes('"BS":');
// A function, not an arrow: `this[key]` is the value before a Buffer's toJSON turned it into `{type, data}`.
function bytesOut(this: Record<string, unknown>, key: string, value: unknown) {
  const original = this[key];
  return original instanceof Uint8Array
    ? Buffer.from(original.buffer, original.byteOffset, original.byteLength).toString('base64')
    : value;
}
const bytesIn = (key: string, value: unknown) => {
  if (key === 'B' && typeof value === 'string') return new Uint8Array(Buffer.from(value, 'base64'));
  if (key === 'BS' && Array.isArray(value) && value.every((entry) => typeof entry === 'string')) {
    return value.map((entry: string) => new Uint8Array(Buffer.from(entry, 'base64')));
  }
  return value;
};

/** The JSON of a request body, and of an answer. */
export const toWireJson = (body: unknown): string => (holdsBytes(body) ? JSON.stringify(body, bytesOut) : JSON.stringify(body));
export const fromWireJson = (text: string): unknown => (mayHoldBytes(text) ? JSON.parse(text, bytesIn) : JSON.parse(text));

/**
 * The SDK's exception classes for the errors the data-plane operations can answer, by name
 * (named one by one: a namespace import would bundle the whole client, ~75 KB and ~9 ms of
 * every cold start). Any other error is a DynamoDBServiceException with the name DynamoDB gave.
 */
type ExceptionClass = new (options: {
  message: string;
  $metadata: DynamoDBServiceException['$metadata'];
}) => DynamoDBServiceException;

// Keyed by property names, which minifying keeps (a class's own name it may not).
const EXCEPTIONS = new Map(
  Object.entries({
    ConditionalCheckFailedException,
    IdempotentParameterMismatchException,
    InternalServerError,
    InvalidEndpointException,
    ItemCollectionSizeLimitExceededException,
    ProvisionedThroughputExceededException,
    ReplicatedWriteConflictException,
    RequestLimitExceeded,
    ResourceNotFoundException,
    ThrottlingException,
    TransactionCanceledException,
    TransactionConflictException,
    TransactionInProgressException,
  }).map(([name, Exception]) => [name, Exception as unknown as ExceptionClass]),
);

/** The SDK's exception for a DynamoDB error answer, so callers test it as they always have. */
const exceptionOf = (
  status: number,
  text: string,
  headerType: string | undefined,
  metadata: DynamoDBServiceException['$metadata'],
) => {
  let body: AttributeMap = {};
  try {
    body = (fromWireJson(text) ?? {}) as AttributeMap;
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  const { __type: type, ...fields } = body;
  const name =
    errorTypeName(headerType ?? (typeof type === 'string' ? type : '')) ||
    (status >= 500 ? 'InternalServerError' : 'UnknownError');
  const text_ = String(fields.message ?? fields.Message ?? name);
  const Known = EXCEPTIONS.get(name);
  // Built from the message and metadata only: the class sets its own name and fault.
  const exception = Known
    ? new Known({ message: text_, $metadata: metadata })
    : new DynamoDBServiceException({ name, $fault: status >= 500 ? 'server' : 'client', message: text_, $metadata: metadata });
  // As the SDK does: the answer's other fields (a failed condition's Item, a transaction's
  // CancellationReasons) added where the exception has none, never over what it has.
  for (const [field, value] of Object.entries(fields)) {
    if ((exception as unknown as AttributeMap)[field] === undefined) (exception as unknown as AttributeMap)[field] = value;
  }
  return exception;
};

/**
 * An error of the SDK's path as this module's class: deployed, the SDK is a file beside the
 * bundle (dynamo-sdk.ts) with its own copies of the exception classes, whose instances
 * `instanceof ConditionalCheckFailedException` here would not know. The same name, fault,
 * message, metadata and fields (a failed condition's Item); anything that is not a DynamoDB
 * answer (a timeout, a dropped connection) is left as it is.
 */
export const asOwnException = (error: unknown): unknown => {
  if (!(error instanceof Error) || error instanceof DynamoDBServiceException || !('$fault' in error)) return error;
  const { $metadata, $fault } = error as unknown as DynamoDBServiceException;
  const Known = EXCEPTIONS.get(error.name);
  const own = Known
    ? new Known({ message: error.message, $metadata })
    : new DynamoDBServiceException({ name: error.name, $fault, message: error.message, $metadata });
  for (const [field, value] of Object.entries(error)) {
    if ((own as unknown as AttributeMap)[field] === undefined) (own as unknown as AttributeMap)[field] = value;
  }
  own.stack = error.stack;
  return own;
};

class WireTimeout extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * Whether an attempt's failure is worth another, by the SDK's own classification (throttling:
 * 429 or a throttling error; transient: 500/502/503/504, timeouts, dropped or refused
 * connections, errors DynamoDB marks retryable), and how long its backoff starts.
 */
const retryOf = (error: unknown): { throttled: boolean } | null => {
  if (typeof error !== 'object' || error === null) return null;
  const classified = error as Parameters<typeof isTransientError>[0];
  if (isThrottlingError(classified)) return { throttled: true };
  return isTransientError(classified) ? { throttled: false } : null;
};

/**
 * The SDK's retry quota: retries spend tokens (more for transient failures than for throttling),
 * answers earn one back; with none left, a failure is not retried, so a table in trouble gets
 * no more than its callers' own traffic.
 */
class RetryQuota {
  private tokens = INITIAL_RETRY_TOKENS;

  spend(retry: { throttled: boolean }): boolean {
    const cost = retry.throttled ? RETRY_COST : TIMEOUT_RETRY_COST;
    if (cost > this.tokens) return false;
    this.tokens -= cost;
    return true;
  }

  earn(): void {
    this.tokens = Math.min(INITIAL_RETRY_TOKENS, this.tokens + NO_RETRY_INCREMENT);
  }
}

/** The request a call is made for: when it must have its answer (epoch ms), and what counts its round trips. */
export interface WireScope {
  deadline?: number;
  roundTrips?: { count: number };
}

export interface WireHooks {
  /** What a call cut short by its request's deadline fails with. */
  deadlineExceeded(commandName: string): Error;
  /** Around each attempt that goes over the wire (counting round trips). */
  attempt<T>(commandName: string, send: () => Promise<T>, scope?: WireScope): Promise<T>;
}

export interface WireSettings {
  /** Where the calls go (the endpoint given, or the region's: shared/aws/environment.ts). */
  url: URL;
  region: string;
  /** The credentials to sign with, asked again near their expiry. */
  credentials: () => Promise<AwsCredentialIdentity>;
  maxAttempts: number;
  requestTimeoutMs?: number;
  hooks: WireHooks;
}

/** Credentials are fetched again this long before they expire (the SDK's own refresh window). */
const REFRESH_BEFORE_MS = 5 * 60_000;

/** What every call needs, settled once (credentials again near their expiry). */
export interface Settled {
  url: URL;
  region: string;
  credentials: AwsCredentialIdentity;
}

/** The headers of a call, SigV4-signed by aws4 (test/unit/dynamo-wire-signing.test.ts holds them equal to the SDK's signer's). */
export const signedHeaders = (settled: Settled, operation: string, payload: string): Record<string, string> => {
  const { url, region, credentials } = settled;
  const signed = aws4.sign(
    {
      service: 'dynamodb',
      region,
      method: 'POST',
      host: url.hostname,
      path: url.pathname,
      headers: {
        Host: url.host,
        'Content-Type': 'application/x-amz-json-1.0',
        'User-Agent': USER_AGENT,
        'X-Amz-Target': `DynamoDB_20120810.${operation}`,
      },
      body: payload,
    },
    credentials,
  );
  return signed.headers as Record<string, string>;
};

export class DynamoWire {
  private settled: Settled | undefined;
  private readonly quota = new RetryQuota();
  private readonly httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 50 });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 50 });

  constructor(private readonly settings: WireSettings) {}

  /** The settled configuration when it is still good: no await on the path of a call. */
  private current(): Settled | undefined {
    const settled = this.settled;
    const expiration = settled?.credentials.expiration;
    return expiration && expiration.getTime() - Date.now() < REFRESH_BEFORE_MS ? undefined : settled;
  }

  /** The credentials, asked for once and again near their expiry (a Lambda's are in its environment). */
  private async settle(): Promise<Settled> {
    const { url, region, credentials } = this.settings;
    this.settled = { url, region, credentials: await credentials() };
    return this.settled;
  }

  async send(call: WireCall, scope?: WireScope): Promise<unknown> {
    const { hooks, maxAttempts } = this.settings;
    const commandName = `${call.operation}Command`;
    const payload = toWireJson(call.body);
    const deadline = scope?.deadline;
    let totalRetryDelay = 0;
    for (let attempt = 1; ; attempt += 1) {
      const settled = this.current() ?? (await this.settle());
      // After settling, which may have waited for credentials: no attempt starts past the deadline.
      if (deadline !== undefined && Date.now() >= deadline) throw hooks.deadlineExceeded(commandName);
      try {
        const answer = await hooks.attempt(commandName, () => this.post(settled, call.operation, payload, scope), scope);
        const metadata = { httpStatusCode: answer.status, requestId: answer.requestId, attempts: attempt, totalRetryDelay };
        if (answer.status !== 200) throw exceptionOf(answer.status, answer.text, answer.errorType, metadata);
        this.quota.earn();
        return outputOf(call, (fromWireJson(answer.text) ?? {}) as AttributeMap, metadata);
      } catch (error) {
        // Errors that never reached an answer say how far the call got, as the SDK's do.
        if (typeof error === 'object' && error !== null && !('$metadata' in error)) {
          Object.assign(error, { $metadata: { attempts: attempt, totalRetryDelay } });
        }
        const retry = retryOf(error);
        if (!retry || attempt >= maxAttempts || !this.quota.spend(retry)) throw error;
        // The SDK's standard backoff: full jitter over an exponential base (longer when throttled).
        const base = retry.throttled ? THROTTLING_RETRY_DELAY_BASE : DEFAULT_RETRY_DELAY_BASE;
        const delay = Math.random() * Math.min(MAXIMUM_RETRY_DELAY, base * 2 ** (attempt - 1));
        // A retry that could only start after the deadline is not worth the wait.
        if (deadline !== undefined && Date.now() + delay >= deadline) throw hooks.deadlineExceeded(commandName);
        totalRetryDelay += delay;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /**
   * One attempt: signed (aws4, synchronous), posted and read within the nearer of the request's
   * deadline and the per-attempt timeout. The deadline is a place on the process's watch list
   * (shared/deadlines.ts), a per-attempt timeout a timer of the attempt's own.
   */
  private post(settled: Settled, operation: string, payload: string, scope: WireScope | undefined): Promise<PostAnswer> {
    const { url } = settled;
    const headers = signedHeaders(settled, operation, payload);
    const agent = url.protocol === 'https:' ? this.httpsAgent : this.httpAgent;
    // A deadline that is not a finite time bounds nothing (apiHandler always sets one; an infinite one never bounded).
    const deadline = scope !== undefined && Number.isFinite(scope.deadline) ? scope.deadline : undefined;
    const untilDeadline = deadline === undefined ? Number.POSITIVE_INFINITY : Math.max(1, deadline - Date.now());
    const { requestTimeoutMs } = this.settings;
    if (requestTimeoutMs !== undefined && requestTimeoutMs < untilDeadline) {
      return postOnce(url, headers, payload, agent, {
        ms: requestTimeoutMs,
        error: () => new WireTimeout(`DynamoDB did not answer ${operation} within ${requestTimeoutMs} ms`),
      });
    }
    if (deadline === undefined) return postOnce(url, headers, payload, agent);
    const { hooks } = this.settings;
    return postOnce(url, headers, payload, agent, { at: deadline, error: () => hooks.deadlineExceeded(`${operation}Command`) });
  }

  destroy(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
