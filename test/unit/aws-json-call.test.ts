/**
 * One signed JSON call without the SDK's client (Secrets Manager's GetSecretValue): signed as
 * the SDK's own signer signs it, and answered, retried and bounded as the SDK's standard mode
 * would, against a stand-in service on a local port.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterEach, expect, test } from '@jest/globals';
import { SignatureV4 } from '@smithy/signature-v4';
import { AwsServiceError, callAwsJson, type JsonCallTarget, signedJsonHeaders } from '../../shared/aws/json-call.js';
import { readSecret, readSecretAt, secretsTarget } from '../../shared/keys/secrets-manager.js';

const CREDENTIALS = {
  accessKeyId: 'ASIAEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE+/=',
};

test.each([
  {
    service: 'secretsmanager',
    target: 'secretsmanager.GetSecretValue',
    jsonVersion: '1.1',
    url: 'https://secretsmanager.eu-central-1.amazonaws.com/',
    body: { SecretId: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:knap/token-keys-AbCdEf' },
  },
  {
    service: 'sqs',
    target: 'AmazonSQS.SendMessage',
    jsonVersion: '1.0',
    url: 'https://sqs.eu-central-1.amazonaws.com/',
    body: {
      QueueUrl: 'https://sqs.eu-central-1.amazonaws.com/123456789012/knap-deliveries',
      MessageBody: '{"run_id":"run_a ✓"}',
      DelaySeconds: 900,
    },
  },
] as const)('$target: signed as the SDK signer signs it, at the same instant', async (call) => {
  const url = new URL(call.url);
  const payload = JSON.stringify(call.body);
  const ours = signedJsonHeaders({ url, region: 'eu-central-1' }, CREDENTIALS, call, payload);
  const date = ours['X-Amz-Date'] as string;
  const signingDate = new Date(
    `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 11)}:${date.slice(11, 13)}:${date.slice(13)}`,
  );
  const sdk = await new SignatureV4({
    credentials: CREDENTIALS,
    region: 'eu-central-1',
    service: call.service,
    applyChecksum: false,
    sha256: new SecretsManagerClient({ region: 'eu-central-1' }).config.sha256,
  }).sign(
    {
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      path: url.pathname,
      query: {},
      headers: {
        host: url.host,
        'content-type': `application/x-amz-json-${call.jsonVersion}`,
        'x-amz-target': call.target,
        'content-length': String(Buffer.byteLength(payload)),
      },
      body: payload,
    },
    { signingDate },
  );
  expect(ours.Authorization).toBe(sdk.headers.authorization);
  expect(ours['X-Amz-Security-Token']).toBe(sdk.headers['x-amz-security-token']);
  expect(ours.Authorization).toContain(`/eu-central-1/${call.service}/aws4_request`);
});

/** A stand-in service: answers each request with the next of `answers` (the last one again once they run out). */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang' | 'drop';
const standIn = async (...answers: Answer[]) => {
  const received: Received[] = [];
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers[Math.min(received.length, answers.length) - 1] as Answer;
      if (answer === 'hang') return;
      if (answer === 'drop') {
        request.socket.destroy();
        return;
      }
      response.writeHead(answer.status, {
        'Content-Type': 'application/x-amz-json-1.1',
        'x-amzn-RequestId': `req-${received.length}`,
        ...answer.headers,
      });
      response.end(answer.body ?? '{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const target: JsonCallTarget = {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`),
    region: 'eu-central-1',
    credentials: async () => CREDENTIALS,
  };
  return { target, received };
};

const SECRET = JSON.stringify({ current: 'k'.repeat(48) });

test('GetSecretValue: the call Secrets Manager expects, and the secret string of its answer', async () => {
  const { target, received } = await standIn({ status: 200, body: JSON.stringify({ ARN: 'arn', SecretString: SECRET }) });
  expect(await readSecretAt(target, 'knap/token-keys')).toBe(SECRET);
  expect(received).toHaveLength(1);
  const [{ headers, body }] = received as [Received];
  expect(JSON.parse(body)).toEqual({ SecretId: 'knap/token-keys' });
  expect(headers['x-amz-target']).toBe('secretsmanager.GetSecretValue');
  expect(headers['content-type']).toBe('application/x-amz-json-1.1');
  expect(headers.authorization).toMatch(
    /^AWS4-HMAC-SHA256 Credential=ASIAEXAMPLE\/\d{8}\/eu-central-1\/secretsmanager\/aws4_request/,
  );
  expect(headers['x-amz-security-token']).toBe(CREDENTIALS.sessionToken);
});

test('an answer that is not JSON fails without quoting it (it may hold a secret)', async () => {
  const { target } = await standIn({ status: 200, body: '{"SecretString":"k-secret-material' });
  const error = (await readSecretAt(target, 'knap/token-keys').catch((caught: unknown) => caught)) as Error;
  expect(error.message).toMatch(/answered 200 with a body that is not JSON/);
  expect(error.message).not.toContain('secret-material');
});

test('a secret with no string value is no secret', async () => {
  const { target } = await standIn({ status: 200, body: JSON.stringify({ ARN: 'arn', SecretBinary: 'AAEC' }) });
  expect(await readSecretAt(target, 'knap/token-keys')).toBeUndefined();
});

test('throttled, then a 503: retried, and the third answer is the one', async () => {
  const { target, received } = await standIn(
    { status: 400, body: JSON.stringify({ __type: 'ThrottlingException', message: 'Rate exceeded' }) },
    { status: 503, body: '<html>unavailable</html>' },
    { status: 200, body: JSON.stringify({ SecretString: SECRET }) },
  );
  expect(await readSecretAt(target, 'knap/token-keys')).toBe(SECRET);
  expect(received).toHaveLength(3);
});

test('a refusal is not retried: its type names the error, as the SDK names it', async () => {
  const { target, received } = await standIn({
    status: 400,
    body: JSON.stringify({
      __type: 'com.amazonaws.secretsmanager#ResourceNotFoundException',
      Message: "Secrets Manager can't find the specified secret.",
    }),
  });
  const error = await readSecretAt(target, 'knap/missing').catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(AwsServiceError);
  expect(error).toMatchObject({
    name: 'ResourceNotFoundException',
    message: "Secrets Manager can't find the specified secret.",
    $fault: 'client',
    $metadata: { httpStatusCode: 400, requestId: 'req-1' },
  });
  expect(received).toHaveLength(1);
});

test('five hundreds three times: three attempts, then the service error', async () => {
  const { target, received } = await standIn({
    status: 500,
    body: JSON.stringify({ __type: 'InternalServiceError', message: 'oops' }),
  });
  await expect(readSecretAt(target, 'knap/token-keys')).rejects.toMatchObject({
    name: 'InternalServiceError',
    $fault: 'server',
    $metadata: { httpStatusCode: 500, attempts: 3 },
  });
  expect(received).toHaveLength(3);
});

test('no answer: each attempt is cut at its bound, and the call ends in a timeout', async () => {
  const { target, received } = await standIn('hang');
  const started = Date.now();
  const error = await callAwsJson(target, {
    service: 'secretsmanager',
    target: 'secretsmanager.GetSecretValue',
    jsonVersion: '1.1',
    body: {},
    timeoutMs: 100,
    maxAttempts: 2,
  }).catch((caught: unknown) => caught);
  expect(error).toMatchObject({ name: 'TimeoutError', $metadata: { attempts: 2 } });
  expect(received).toHaveLength(2);
  expect(Date.now() - started).toBeGreaterThanOrEqual(180);
});

test('a dropped connection is retried', async () => {
  const { target, received } = await standIn('drop', { status: 200, body: JSON.stringify({ SecretString: SECRET }) });
  expect(await readSecretAt(target, 'knap/token-keys')).toBe(SECRET);
  expect(received).toHaveLength(2);
});

test('where the read goes: a region and the environment credentials, else the SDK decides', async () => {
  const lambda = {
    AWS_LAMBDA_FUNCTION_NAME: 'knap-token',
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'ASIA1',
    AWS_SECRET_ACCESS_KEY: 's',
    AWS_SESSION_TOKEN: 't',
  };
  const target = secretsTarget(lambda);
  expect(target?.url.href).toBe('https://secretsmanager.eu-central-1.amazonaws.com/');
  expect(await target?.credentials()).toEqual({ accessKeyId: 'ASIA1', secretAccessKey: 's', sessionToken: 't' });
  expect(secretsTarget({ ...lambda, AWS_REGION: 'cn-north-1' })?.url.host).toBe('secretsmanager.cn-north-1.amazonaws.com.cn');
  expect(secretsTarget({ ...lambda, AWS_REGION: '' })).toBeUndefined();
  expect(secretsTarget({ ...lambda, AWS_ACCESS_KEY_ID: '' })).toBeUndefined();
  expect(secretsTarget({ ...lambda, AWS_USE_FIPS_ENDPOINT: 'true' })).toBeUndefined();
  expect(secretsTarget({ ...lambda, AWS_ENDPOINT_URL_SECRETS_MANAGER: 'http://127.0.0.1:1' })).toBeUndefined();
  // Not a Lambda: a laptop's profile may hold other credentials, so the SDK reads it.
  expect(secretsTarget({ ...lambda, AWS_LAMBDA_FUNCTION_NAME: '' })).toBeUndefined();
});

test('left to the SDK: its client reads the secret, from the endpoint the environment names', async () => {
  const { target, received } = await standIn({ status: 200, body: JSON.stringify({ SecretString: SECRET }) });
  const env = {
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'ASIA1',
    AWS_SECRET_ACCESS_KEY: 's',
    AWS_ENDPOINT_URL_SECRETS_MANAGER: target.url.href,
  };
  const saved = { ...process.env };
  try {
    Object.assign(process.env, env);
    expect(await readSecret('knap/token-keys', env)).toBe(SECRET);
  } finally {
    process.env = saved;
  }
  expect(received).toHaveLength(1);
  // The SDK's own client made it: its user agent, not ours.
  expect(received[0]?.headers['user-agent']).toMatch(/aws-sdk-js/);
});
