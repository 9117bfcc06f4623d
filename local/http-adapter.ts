import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Context } from 'aws-lambda';
import { LAMBDA_SETTINGS } from '../lib/lambda-settings.js';
import { setOwnMember } from '../shared/domain/own-member.js';
import type { HttpEvent, HttpResult } from '../shared/http/types.js';
import { OUTER_SCOPE, type RequestScope } from '../shared/request-scope.js';

/**
 * Content types API Gateway HTTP APIs pass as text; anything else, form bodies included,
 * arrives base64-encoded.
 */
const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript)(\s*;|$))/i;

export const isTextContentType = (contentType: string): boolean => TEXT_TYPES.test(contentType);

/** Adds a value as API Gateway does: a repeated name's values joined with commas. Own properties only, so `constructor` or `__proto__` is a name like any other. */
const addJoined = (record: Record<string, string>, name: string, value: string): void => {
  if (Object.hasOwn(record, name)) record[name] = `${record[name]},${value}`;
  else setOwnMember(record, name, value);
};

/**
 * The request's headers as API Gateway gives them: names in lower case, a repeated header's
 * values joined. Read from `rawHeaders`, since Node's `headers` would keep only the first
 * Authorization (and drop others silently).
 */
const singleValued = (raw: string[]): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (let index = 0; index + 1 < raw.length; index += 2) {
    addJoined(headers, (raw[index] as string).toLowerCase(), raw[index + 1] as string);
  }
  return headers;
};

const withoutCookie = (headers: Record<string, string>): Record<string, string> => {
  const { cookie: _cookie, ...others } = headers;
  return others;
};

const queryParameters = (search: URLSearchParams): Record<string, string> | undefined => {
  const params: Record<string, string> = {};
  for (const [name, value] of search) addJoined(params, name, value);
  return Object.keys(params).length > 0 ? params : undefined;
};

/**
 * A request line's path and query string, as `new URL(target, 'http://localhost')` gives them
 * (`search` with its `?`, or empty). Most targets are a plain path and query, which URL would
 * give back unchanged: those are split at the first `?` without building a URL (a URL costs
 * more than the rest of the adapter). Anything URL might rewrite (dot segments, percent
 * escapes in the path, characters it escapes, `//`, an absolute target) goes through URL.
 * Null when URL cannot read it (`/\\` is `//`, a host missing): the caller's 400.
 */
export const requestTarget = (target: string): RequestTarget | null => {
  if (PLAIN_TARGET.test(target)) {
    const query = target.indexOf('?');
    if (query === -1) return { pathname: target, search: '' };
    return { pathname: target.slice(0, query), search: query === target.length - 1 ? '' : target.slice(query) };
  }
  try {
    const { pathname, search } = new URL(target, 'http://localhost');
    return { pathname, search };
  } catch {
    return null;
  }
};

export interface RequestTarget {
  pathname: string;
  /** The query with its `?`, or empty. */
  search: string;
}

/** A path of characters URL keeps as they are (no `.` or `%`: dot segments), then perhaps a query of such characters. */
const PLAIN_TARGET = /^\/(?!\/)[\w\-~!$&()*+,;=:@/]*(\?[\w\-~!$&()*+,;=:@/?%.]*)?$/;

/** `23/Nov/2026:09:20:47 +0000`, the format of requestContext.time. */
export const clfTime = (date: Date): string => {
  const [, day, month, year, time] = /^\w+, (\d+) (\w+) (\d+) ([\d:]+)/.exec(date.toUTCString()) ?? [];
  return `${day}/${month}/${year}:${time} +0000`;
};

/** The last second written by clfTime, since one second serves many requests. */
let lastClf = { second: Number.NaN, text: '' };
const clfTimeOf = (date: Date): string => {
  const second = Math.floor(date.getTime() / 1000);
  if (second !== lastClf.second) lastClf = { second, text: clfTime(date) };
  return lastClf.text;
};

/** The API Gateway HTTP API (payload format 2.0) event AWS would send for this request. */
export const toHttpApiEvent = (
  request: IncomingMessage,
  body: Buffer,
  routeKey: string,
  pathParameters: Record<string, string> = {},
  now = new Date(),
  target: RequestTarget = requestTarget(request.url ?? '/') ?? { pathname: '/', search: '' },
): HttpEvent => {
  const headers = singleValued(request.rawHeaders);
  const method = request.method ?? 'GET';
  // A text type whose bytes are not UTF-8 goes base64, so the handler can refuse it rather
  // than read replacement characters it cannot tell from ones the client sent.
  const text = body.length === 0 || (isTextContentType(headers['content-type'] ?? '') && isUtf8(body));
  // API Gateway moves cookies out of the headers; read, not deleted, so `headers` keeps a fast shape.
  const cookie = headers.cookie;
  const requestId = randomUUID();
  const { pathname, search } = target;
  const event: HttpEvent = {
    version: '2.0',
    routeKey,
    rawPath: pathname,
    rawQueryString: search.slice(1),
    headers: cookie === undefined ? headers : withoutCookie(headers),
    queryStringParameters: search ? queryParameters(new URLSearchParams(search)) : undefined,
    requestContext: {
      accountId: 'offline',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0] ?? 'localhost',
      http: {
        method,
        path: pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: clfTimeOf(now),
      timeEpoch: now.getTime(),
    },
    body: body.length === 0 ? undefined : text ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: !text,
  };
  const cookies = cookie?.split(/;\s*/).filter(Boolean);
  if (cookies && cookies.length > 0) event.cookies = cookies;
  for (const _name in pathParameters) {
    event.pathParameters = pathParameters;
    break;
  }
  return event;
};

/**
 * A Lambda context good enough for middy: a deadline and a request id. A class, so that its
 * methods are shared rather than made again for every request.
 */
class LocalContext implements Context {
  /** The local server's fields for the request's scope (see outerScopeOf): a field, so setting it changes no shape. */
  [OUTER_SCOPE]: RequestScope | undefined = undefined;
  callbackWaitsForEmptyEventLoop = true;
  readonly functionVersion = '$LATEST';
  readonly invokedFunctionArn: string;
  readonly memoryLimitInMB = String(LAMBDA_SETTINGS.memoryMb);
  readonly awsRequestId = randomUUID();
  readonly logGroupName: string;
  readonly logStreamName: string;
  private readonly deadline: number;
  constructor(
    readonly functionName: string,
    timeoutMs: number,
    names: ContextNames,
  ) {
    this.deadline = Date.now() + timeoutMs;
    this.invokedFunctionArn = names.invokedFunctionArn ?? localFunctionArn(functionName);
    this.logGroupName = `/aws/lambda/${functionName}`;
    this.logStreamName = names.logStreamName ?? 'local';
  }
  getRemainingTimeInMillis(): number {
    return Math.max(0, this.deadline - Date.now());
  }
  done(): void {}
  fail(): void {}
  succeed(): void {}
}

/** What a caller may name differently from the local server's defaults (scripts/invoke-core.ts, as deployed). */
type ContextNames = Partial<Pick<Context, 'invokedFunctionArn' | 'logStreamName'>>;

export const lambdaContext = (functionName: string, timeoutMs: number, names: ContextNames = {}): LocalContext =>
  new LocalContext(functionName, timeoutMs, names);

/** The ARN a function has under `npm start`: its HTTP invocations' and its background jobs' lines carry it. */
export const localFunctionArn = (functionName: string): string => `arn:aws:lambda:local:000000000000:function:${functionName}`;

/**
 * Writes a handler result the way API Gateway does: a structured result as given, and
 * anything else (a bare object or string) as a 200 JSON body.
 */
export const writeHttpResult = (response: ServerResponse, result: HttpResult | string | object | undefined): void => {
  const structured = typeof result === 'object' && result !== null && 'statusCode' in result;
  if (!structured) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(typeof result === 'string' ? result : JSON.stringify(result ?? null));
    return;
  }
  const { statusCode, headers = {}, cookies = [], body = '', isBase64Encoded } = result as HttpResult;
  // The headers go to writeHead as they are (Node checks and writes each once), rather than
  // through setHeader one by one, which keeps a second copy. Node writes a number or a boolean
  // as its text, as String() would.
  let fields: OutgoingHttpHeaders = headers as OutgoingHttpHeaders;
  if (cookies.length > 0) {
    fields = Object.assign({}, fields);
    fields['set-cookie'] = cookies;
  }
  response.writeHead(statusCode ?? 200, fields);
  response.end(isBase64Encoded ? Buffer.from(body, 'base64') : body);
};
