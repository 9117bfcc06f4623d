/**
 * DynamoDB's JSON protocol spoken directly: the store's commands (lib-dynamodb's, or the
 * client's own) marshalled as lib-dynamodb would, signed with SigV4 by `aws4` (synchronous,
 * no promise per step) with the SDK client's own credentials, region and endpoint, posted
 * over a keep-alive agent.
 *
 * Why not `client.send`: per call, the SDK's middleware stack (schema serde, endpoint rules,
 * retry tokens, user agent, log filters, per-command stack resolution) costs about five times
 * the call itself: `npm run bench -- --wire` prints both, side by side on one dynalite. Every
 * request makes one to four calls, so that was a third to a half of the server's CPU
 * (docs/performance.md).
 *
 * What the SDK did that matters is kept: credentials from its provider chain (fetched again
 * near their expiry), its endpoint rules, retries of throttling, 5xx and network errors with
 * its jittered backoff, its exception classes (so `instanceof ConditionalCheckFailedException`
 * and `error.Item` work unchanged). What this does not speak (another operation, a call with
 * options, the calls of an X-Ray-sampled invocation) goes to the SDK (dynamo-client.ts).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import * as dynamo from '@aws-sdk/client-dynamodb';
import { marshall, type marshallOptions, unmarshall, type unmarshallOptions } from '@aws-sdk/util-dynamodb';
import aws4 from 'aws4';

/** The low-level commands spoken here, by class: their operation names on the wire. */
const OPERATIONS = new Map<unknown, string>([
  [dynamo.GetItemCommand, 'GetItem'],
  [dynamo.PutItemCommand, 'PutItem'],
  [dynamo.UpdateItemCommand, 'UpdateItem'],
  [dynamo.DeleteItemCommand, 'DeleteItem'],
  [dynamo.QueryCommand, 'Query'],
  [dynamo.ScanCommand, 'Scan'],
  [dynamo.BatchGetItemCommand, 'BatchGetItem'],
  [dynamo.BatchWriteItemCommand, 'BatchWriteItem'],
  [dynamo.TransactGetItemsCommand, 'TransactGetItems'],
  [dynamo.TransactWriteItemsCommand, 'TransactWriteItems'],
]);

/** The error names the SDK's standard retry strategy treats as throttling (retried, longer backoff). */
const THROTTLING = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'TransactionInProgressException',
  'LimitExceededException',
]);
/** Names this client in DynamoDB's request logs (the SDK's own names the SDK and its version). */
const USER_AGENT = 'knap-api dynamo-wire (aws4)';
const TRANSIENT_NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND']);

type KeyNodes = Record<string, unknown> | unknown[] | null;
type AttributeMap = Record<string, unknown>;

/** A command as lib-dynamodb builds it: its input in plain values, which parts to (un)marshall, the client command under it. */
interface DocumentCommand {
  input: AttributeMap;
  inputKeyNodes?: KeyNodes;
  outputKeyNodes?: KeyNodes;
  clientCommand?: { constructor: unknown };
  constructor: unknown;
}

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
    for (const [key, value] of Object.entries(obj as AttributeMap)) out[key] = walk(value, convert, next);
    return out;
  }
  return convertSome(obj as AttributeMap, convert, nodes);
};

const convertAll = (obj: unknown, convert: (value: unknown) => unknown): unknown => {
  if (Array.isArray(obj)) return obj.map((value) => walk(value, convert, null));
  const out: AttributeMap = {};
  for (const [key, value] of Object.entries(obj as AttributeMap)) {
    const converted = walk(value, convert, null);
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

/**
 * The wire call for `command` (a lib-dynamodb command, or a client command as it is), or null
 * when it is not one spoken here.
 */
export const wireCallOf = (command: unknown, translate: TranslateConfig = {}): WireCall | null => {
  const candidate = command as DocumentCommand;
  const direct = OPERATIONS.get(candidate.constructor);
  if (direct) return { operation: direct, body: candidate.input, outputKeyNodes: undefined, unmarshall: undefined };
  const operation = candidate.clientCommand ? OPERATIONS.get(candidate.clientCommand.constructor) : undefined;
  if (!operation || !candidate.inputKeyNodes || !candidate.outputKeyNodes) return null;
  const marshallWith = {
    ...translate.marshallOptions,
    convertTopLevelContainer: translate.marshallOptions?.convertTopLevelContainer ?? true,
  };
  const unmarshallWith = {
    ...translate.unmarshallOptions,
    convertWithoutMapWrapper: translate.unmarshallOptions?.convertWithoutMapWrapper ?? true,
  };
  const body = convertTop(candidate.input, (value) => marshall(value as never, marshallWith), candidate.inputKeyNodes);
  return {
    operation,
    body,
    outputKeyNodes: candidate.outputKeyNodes,
    unmarshall: (value) => unmarshall(value as never, unmarshallWith),
  };
};

/** What a call answered, unmarshalled as lib-dynamodb would when the command was one of its own. */
const outputOf = (call: WireCall, parsed: AttributeMap, metadata: dynamo.DynamoDBServiceException['$metadata']) => {
  const output = call.unmarshall ? convertTop(parsed, call.unmarshall, call.outputKeyNodes) : parsed;
  return { ...output, $metadata: metadata };
};

/**
 * Binary attributes travel as base64 (the JSON protocol); the SDK hands them over as bytes.
 * A replacer or reviver makes JSON's native pass call back for every value, so they run only
 * where bytes can be: a request holding a Uint8Array, an answer whose text has a B or BS.
 */
const holdsBytes = (value: unknown): boolean => {
  if (value instanceof Uint8Array) return true;
  if (typeof value !== 'object' || value === null) return false;
  for (const member of Array.isArray(value) ? value : Object.values(value)) if (holdsBytes(member)) return true;
  return false;
};
const mayHoldBytes = (text: string): boolean => text.includes('"B":') || text.includes('"BS":');
const bytesOut = (_key: string, value: unknown) =>
  value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') : value;
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

/** The SDK's exception for a DynamoDB error answer, so callers test it as they always have. */
const exceptionOf = (status: number, text: string, metadata: dynamo.DynamoDBServiceException['$metadata']) => {
  let body: AttributeMap = {};
  try {
    body = fromWireJson(text) as AttributeMap;
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  const type = typeof body.__type === 'string' ? body.__type : '';
  const name = type.slice(type.lastIndexOf('#') + 1) || (status >= 500 ? 'InternalServerError' : 'UnknownError');
  const { __type: _type, message, Message, ...fields } = body;
  const text_ = String(message ?? Message ?? name);
  const Exception = (dynamo as unknown as Record<string, unknown>)[name];
  if (typeof Exception === 'function' && Exception.prototype instanceof dynamo.DynamoDBServiceException) {
    const Known = Exception as new (options: object) => dynamo.DynamoDBServiceException;
    return Object.assign(new Known({ message: text_, $metadata: metadata, ...fields }), fields);
  }
  return Object.assign(
    new dynamo.DynamoDBServiceException({
      name,
      $fault: status >= 500 ? 'server' : 'client',
      message: text_,
      $metadata: metadata,
    }),
    fields,
  );
};

class WireTimeout extends Error {
  override readonly name = 'TimeoutError';
}

const isRetryable = (error: unknown): { throttled: boolean } | null => {
  if (error instanceof dynamo.DynamoDBServiceException) {
    if (THROTTLING.has(error.name)) return { throttled: true };
    return (error.$metadata.httpStatusCode ?? 0) >= 500 ? { throttled: false } : null;
  }
  if (error instanceof WireTimeout) return { throttled: false };
  const code = (error as NodeJS.ErrnoException).code;
  return code && TRANSIENT_NETWORK.has(code) ? { throttled: false } : null;
};

export interface WireHooks {
  /** When the request being served must have its answer (epoch ms), if it has such a deadline. */
  deadline(): number | undefined;
  /** What a call cut short by that deadline fails with. */
  deadlineExceeded(commandName: string): Error;
  /** Around each attempt that goes over the wire (counting round trips). */
  attempt<T>(commandName: string, send: () => Promise<T>): Promise<T>;
}

export interface WireSettings {
  client: dynamo.DynamoDBClient;
  maxAttempts: number;
  requestTimeoutMs?: number;
  hooks: WireHooks;
}

/** What the SDK's credential chain resolves to. */
type AwsCredentialIdentity = Awaited<ReturnType<dynamo.DynamoDBClient['config']['credentials']>>;

/** Credentials are fetched again this long before they expire (the SDK's own refresh window). */
const REFRESH_BEFORE_MS = 5 * 60_000;

/** What every call needs from the SDK client's configuration, settled once (credentials again near their expiry). */
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

/** Speaks DynamoDB for one SDK client: its credentials, region and endpoint. */
export class DynamoWire {
  private settled: Settled | undefined;
  private readonly httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 50 });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 50 });

  constructor(private readonly settings: WireSettings) {}

  /** The settled configuration when it is still good: no await on the path of a call. */
  private current(): Settled | undefined {
    const settled = this.settled;
    const expiration = settled?.credentials.expiration;
    return expiration && expiration.getTime() - Date.now() < REFRESH_BEFORE_MS ? undefined : settled;
  }

  /** The client's endpoint setting if it has one, else the SDK's own rules for its region; its credential chain. */
  private async settle(): Promise<Settled> {
    const { config } = this.settings.client;
    const region = this.settled?.region ?? (await config.region());
    let url = this.settled?.url;
    if (!url && config.endpoint) {
      const { protocol, hostname, port, path } = await config.endpoint();
      url = new URL(`${protocol}//${hostname}${port ? `:${port}` : ''}${path ?? '/'}`);
    }
    url ??= new URL(
      config.endpointProvider({
        Region: region,
        UseFIPS: await config.useFipsEndpoint(),
        UseDualStack: await config.useDualstackEndpoint(),
      }).url.href,
    );
    this.settled = { url, region, credentials: await config.credentials() };
    return this.settled;
  }

  async send(call: WireCall): Promise<unknown> {
    const { hooks, maxAttempts } = this.settings;
    const commandName = `${call.operation}Command`;
    const payload = toWireJson(call.body);
    let totalRetryDelay = 0;
    for (let attempt = 1; ; attempt += 1) {
      const deadline = hooks.deadline();
      if (deadline !== undefined && Date.now() >= deadline) throw hooks.deadlineExceeded(commandName);
      const settled = this.current() ?? (await this.settle());
      try {
        const { status, text, requestId } = await hooks.attempt(commandName, () =>
          this.post(settled, call.operation, payload, deadline),
        );
        const metadata = { httpStatusCode: status, requestId, attempts: attempt, totalRetryDelay };
        if (status !== 200) throw exceptionOf(status, text, metadata);
        return outputOf(call, fromWireJson(text) as AttributeMap, metadata);
      } catch (error) {
        const retry = isRetryable(error);
        if (!retry || attempt >= maxAttempts) throw error;
        // The SDK's standard strategy: full jitter over an exponential base (longer when throttled).
        const delay = Math.random() * Math.min(20_000, (retry.throttled ? 500 : 100) * 2 ** (attempt - 1));
        // A retry that could only start after the deadline is not worth the wait.
        if (deadline !== undefined && Date.now() + delay >= deadline) throw hooks.deadlineExceeded(commandName);
        totalRetryDelay += delay;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /**
   * One attempt: signed (aws4, synchronous), posted, read. Its socket may sit idle until the
   * request's deadline or the per-attempt timeout, whichever is nearer: one timer, which the
   * socket keeps anyway, rather than a race against a timer of its own per call.
   */
  private post(
    settled: Settled,
    operation: string,
    payload: string,
    deadline: number | undefined,
  ): Promise<{ status: number; text: string; requestId?: string }> {
    const { url } = settled;
    const secure = url.protocol === 'https:';
    const headers = signedHeaders(settled, operation, payload);
    const untilDeadline = deadline === undefined ? Number.POSITIVE_INFINITY : Math.max(1, deadline - Date.now());
    const timeoutMs = Math.min(this.settings.requestTimeoutMs ?? Number.POSITIVE_INFINITY, untilDeadline);
    return new Promise((resolve, reject) => {
      const request = (secure ? httpsRequest : httpRequest)(
        {
          protocol: url.protocol,
          hostname: url.hostname,
          port: url.port || undefined,
          path: url.pathname,
          method: 'POST',
          headers,
          agent: secure ? this.httpsAgent : this.httpAgent,
        },
        (response: IncomingMessage) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              text: chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8'),
              requestId: header(response, 'x-amzn-requestid'),
            }),
          );
        },
      );
      if (timeoutMs !== Number.POSITIVE_INFINITY) {
        request.setTimeout(timeoutMs, () =>
          request.destroy(
            timeoutMs === untilDeadline
              ? this.settings.hooks.deadlineExceeded(`${operation}Command`)
              : new WireTimeout(`DynamoDB did not answer ${operation} within ${timeoutMs} ms`),
          ),
        );
      }
      request.on('error', reject);
      request.end(payload);
    });
  }

  destroy(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

const header = (response: IncomingMessage, name: string): string | undefined => {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
};
