/**
 * One call of an AWS service's JSON protocol (Secrets Manager's, SQS's), without the SDK's
 * client: the body posted over HTTPS, SigV4-signed by `aws4` (as DynamoWire signs), retried
 * where the SDK's classification says an error is worth another attempt (throttling, 5xx,
 * dropped connections and timeouts; three attempts, full-jitter backoff over the SDK's exported
 * delay constants), each attempt within a timeout. The request's deadline does not reach these
 * calls: apiHandler answers a request that outlasts its answer-by time (shared/deadlines.ts).
 * The SDK's clients bring `@smithy/core` and `@aws-sdk/core`, about half of a function's cold
 * start (docs/performance.md, "Cold start"); a call or two per container does not need them.
 */
import { Agent as HttpsAgent } from 'node:https';
import {
  DEFAULT_RETRY_DELAY_BASE,
  isThrottlingError,
  isTransientError,
  MAXIMUM_RETRY_DELAY,
  THROTTLING_RETRY_DELAY_BASE,
} from '@smithy/core/retry';
import aws4 from 'aws4';
import type { AwsCredentialIdentity, ServiceTarget } from './environment.js';
import { errorTypeName, type PostAnswer, postOnce } from './post.js';

/** Where a service's calls go and what signs them (shared/aws/environment.ts). */
export type JsonCallTarget = ServiceTarget;

export interface JsonCall {
  /** The signing name: `secretsmanager`. */
  service: string;
  /** `X-Amz-Target`: `secretsmanager.GetSecretValue`. */
  target: string;
  /** `1.1` for Secrets Manager, `1.0` for SQS and DynamoDB. */
  jsonVersion: '1.0' | '1.1';
  body: unknown;
  /** Each attempt's bound, connecting and reading included. */
  timeoutMs: number;
  maxAttempts?: number;
}

/** What an AWS service answered other than 200: its error type as the name, as the SDK names it. */
export class AwsServiceError extends Error {
  readonly $fault: 'client' | 'server';
  readonly $metadata: { httpStatusCode?: number; requestId?: string; attempts?: number };

  constructor(name: string, message: string, status: number, requestId: string | undefined) {
    super(message);
    this.name = name;
    this.$fault = status >= 500 ? 'server' : 'client';
    this.$metadata = { httpStatusCode: status, requestId };
  }
}

class CallTimeout extends Error {
  override readonly name = 'TimeoutError';
}

const USER_AGENT = 'knap-api json-call (aws4)';
const agent = new HttpsAgent({ keepAlive: true });

/** The headers of a call, SigV4-signed (test/unit/aws-json-call.test.ts holds them equal to the SDK's signer's). */
export const signedJsonHeaders = (
  target: Omit<JsonCallTarget, 'credentials'>,
  credentials: AwsCredentialIdentity,
  call: Pick<JsonCall, 'service' | 'target' | 'jsonVersion'>,
  payload: string,
): Record<string, string> =>
  aws4.sign(
    {
      service: call.service,
      region: target.region,
      method: 'POST',
      host: target.url.hostname,
      path: target.url.pathname,
      headers: {
        Host: target.url.host,
        'Content-Type': `application/x-amz-json-${call.jsonVersion}`,
        'User-Agent': USER_AGENT,
        'X-Amz-Target': call.target,
      },
      body: payload,
    },
    credentials,
  ).headers as Record<string, string>;

/** The service's JSON answer to `call`, or its error (AwsServiceError, or the network's) after the attempts retries allow. */
export const callAwsJson = async (target: JsonCallTarget, call: JsonCall): Promise<unknown> => {
  const payload = JSON.stringify(call.body);
  const maxAttempts = call.maxAttempts ?? 3;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const headers = signedJsonHeaders(target, await target.credentials(), call, payload);
      const answer = await postOnce(target.url, headers, payload, target.url.protocol === 'https:' ? agent : undefined, {
        ms: call.timeoutMs,
        error: () => new CallTimeout(`${target.url.host} did not answer within ${call.timeoutMs} ms`),
      });
      if (answer.status === 200) return parseAnswer(target, answer.text);
      throw errorOf(answer);
    } catch (error) {
      // How far the call got, as the SDK's errors say it.
      if (error instanceof AwsServiceError) error.$metadata.attempts = attempt;
      else if (typeof error === 'object' && error !== null && !('$metadata' in error)) {
        Object.assign(error, { $metadata: { attempts: attempt } });
      }
      const classified = error as Parameters<typeof isTransientError>[0];
      const throttled = isThrottlingError(classified);
      if (attempt >= maxAttempts || !(throttled || isTransientError(classified))) throw error;
      // Full jitter over an exponential base (longer when throttled), the SDK's delay constants.
      const base = throttled ? THROTTLING_RETRY_DELAY_BASE : DEFAULT_RETRY_DELAY_BASE;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.random() * Math.min(MAXIMUM_RETRY_DELAY, base * 2 ** (attempt - 1))),
      );
    }
  }
};

/**
 * An answer's JSON. Not JSON is an error that quotes none of it: the answer may hold a secret,
 * and V8's parse errors quote their input.
 */
const parseAnswer = (target: JsonCallTarget, text: string): unknown => {
  try {
    return JSON.parse(text || '{}');
  } catch {
    throw new Error(`${target.url.host} answered 200 with a body that is not JSON`);
  }
};

/** The error of an answer, named by its `__type` (or `x-amzn-errortype`) as the SDK names it. */
const errorOf = (answer: PostAnswer): AwsServiceError => {
  let body: { __type?: unknown; message?: unknown; Message?: unknown } = {};
  try {
    body = JSON.parse(answer.text) ?? {};
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  const name =
    errorTypeName(answer.errorType ?? (typeof body.__type === 'string' ? body.__type : '')) ||
    (answer.status >= 500 ? 'InternalServiceError' : 'UnknownError');
  return new AwsServiceError(name, String(body.message ?? body.Message ?? name), answer.status, answer.requestId);
};
