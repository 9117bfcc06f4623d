/**
 * DynamoDB Local and dynalite accept any signature, so no integration test can catch a wrong
 * one: DynamoWire's headers are held equal here to what the SDK's own SigV4 signer makes of the
 * same request, at the same instant, for the endpoints and credentials a deployment meets.
 */

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, expect, jest, test } from '@jest/globals';
import { SignatureV4 } from '@smithy/signature-v4';
import { dynamoSettingsFromEnv } from '../../shared/store/dynamo-client.js';
import { type Settled, signedHeaders } from '../../shared/store/dynamo-wire.js';

const NOW = new Date('2026-11-25T15:04:05.678Z');

beforeAll(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
});
afterAll(() => {
  jest.useRealTimers();
});

const sdkSigned = async (settled: Settled, operation: string, payload: string) => {
  const signer = new SignatureV4({
    credentials: settled.credentials,
    region: settled.region,
    service: 'dynamodb',
    // The SDK also signs an x-amz-content-sha256 header, which DynamoDB does not ask for; the rest is the same algorithm.
    applyChecksum: false,
    // The hash the SDK's DynamoDB client signs with.
    sha256: new DynamoDBClient({ region: settled.region }).config.sha256,
  });
  const { url } = settled;
  const request = await signer.sign(
    {
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: url.pathname,
      query: {},
      headers: {
        host: url.host,
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `DynamoDB_20120810.${operation}`,
        'content-length': String(Buffer.byteLength(payload)),
      },
      body: payload,
    },
    { signingDate: NOW },
  );
  return request.headers;
};

const lowerCased = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), String(value)]));

const cases: [string, Settled][] = [
  [
    'Lambda: a regional endpoint, a session token',
    {
      url: new URL('https://dynamodb.eu-central-1.amazonaws.com/'),
      region: 'eu-central-1',
      credentials: {
        accessKeyId: 'ASIAEXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE+/=',
      },
    },
  ],
  [
    'China: another partition',
    {
      url: new URL('https://dynamodb.cn-north-1.amazonaws.com.cn/'),
      region: 'cn-north-1',
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret' },
    },
  ],
  [
    'a local DynamoDB: plain http and a port',
    {
      url: new URL('http://127.0.0.1:8000/'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    },
  ],
];

test.each(cases)('%s: the SDK signer signs it the same', async (_name, settled) => {
  for (const [operation, payload] of [
    [
      'UpdateItem',
      JSON.stringify({
        TableName: 'knap',
        Key: { pk: { S: 'CLIENT#c-1' }, sk: { S: 'META' } },
        UpdateExpression: 'SET n = :n',
        ExpressionAttributeValues: { ':n': { S: 'naïve ✓ "quoted"' } },
      }),
    ],
    [
      'Query',
      JSON.stringify({
        TableName: 'knap',
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: 'ORG#a b/c' } },
      }),
    ],
  ] as const) {
    const ours = lowerCased(signedHeaders(settled, operation, payload));
    const sdk = lowerCased(await sdkSigned(settled, operation, payload));
    expect(ours.authorization).toBe(sdk.authorization);
    expect(ours['x-amz-date']).toBe(sdk['x-amz-date']);
    expect(ours['x-amz-security-token']).toBe(sdk['x-amz-security-token']);
    expect(ours.host).toBe(settled.url.host);
    expect(ours['content-length']).toBe(String(Buffer.byteLength(payload)));
  }
});

test('a different payload, operation or secret gives a different signature', () => {
  const [, settled] = cases[0] as [string, Settled];
  const signature = (s: Settled, operation: string, payload: string) => signedHeaders(s, operation, payload).Authorization;
  const base = signature(settled, 'GetItem', '{"TableName":"knap"}');
  expect(signature(settled, 'GetItem', '{"TableName":"knaq"}')).not.toBe(base);
  expect(signature(settled, 'PutItem', '{"TableName":"knap"}')).not.toBe(base);
  expect(
    signature(
      { ...settled, credentials: { ...settled.credentials, secretAccessKey: 'other' } },
      'GetItem',
      '{"TableName":"knap"}',
    ),
  ).not.toBe(base);
});

test('DYNAMODB_TIMEOUT_MS: a whole number of milliseconds above 0, else no timeout setting', () => {
  const timeout = (value: string | undefined) => dynamoSettingsFromEnv({ DYNAMODB_TIMEOUT_MS: value }).requestTimeoutMs;
  expect(timeout('2000')).toBe(2000);
  for (const value of [undefined, '', '2s', '-1', '0', '1.5', 'Infinity']) expect(timeout(value)).toBeUndefined();
});
