/**
 * The deployed fan-out (functions/dispatch-runs/fan-out.ts): one SQS SendMessage per worker
 * share, to a stand-in that speaks SQS's JSON protocol, and the settings the dispatcher reads
 * from its environment.
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import { SqsDispatchFanOut } from '../../functions/dispatch-runs/fan-out.js';
import { dispatchSettingsFromEnv, shardsOf } from '../../functions/dispatch-runs/handler.js';
import { SqsStandIn } from '../support/sqs-stand-in.js';

const sqs = new SqsStandIn();
const sent = sqs.sent;
let queueUrl: string;
beforeAll(async () => {
  await sqs.listen('knap-dispatch');
  queueUrl = sqs.url;
});
afterAll(() => sqs.close());

/** The SDK's client, with test credentials (it sends to the queue URL's own host). */
const client = () => new SQSClient({ region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });

test('each share is one SendMessage, {"shards", "by"}, undelayed, that a worker reads back', async () => {
  sent.length = 0;
  const fanOut = new SqsDispatchFanOut(queueUrl, client());
  await fanOut.send({ shards: [3, 11], by: '2026-11-30T09:00:50.000Z' });
  await fanOut.send({ shards: [0], by: '2026-11-30T09:00:50.000Z' });
  expect(sent.map(({ target, input }) => ({ target, input }))).toEqual([
    {
      target: 'AmazonSQS.SendMessage',
      input: { QueueUrl: queueUrl, MessageBody: '{"shards":[3,11],"by":"2026-11-30T09:00:50.000Z"}' },
    },
    {
      target: 'AmazonSQS.SendMessage',
      input: { QueueUrl: queueUrl, MessageBody: '{"shards":[0],"by":"2026-11-30T09:00:50.000Z"}' },
    },
  ]);
  expect(shardsOf(JSON.parse(String(sent[0]?.input.MessageBody)) as { shards: unknown })).toEqual([3, 11]);
});

test('a body SQS did not store as sent is an error (the coordinator then drains that share itself)', async () => {
  sqs.storedBody = 'something else';
  try {
    await expect(new SqsDispatchFanOut(queueUrl, client()).send({ shards: [1], by: new Date().toISOString() })).rejects.toThrow(
      /InvalidChecksumError|MD5/,
    );
  } finally {
    sqs.storedBody = undefined;
  }
});

test('DISPATCH_QUEUE_URL gives the fan-out and DISPATCH_WORKERS its width; without a URL, no fan-out', () => {
  const deployed = dispatchSettingsFromEnv({ DISPATCH_QUEUE_URL: queueUrl, DISPATCH_WORKERS: '5' });
  expect(deployed.fanOut).toBeInstanceOf(SqsDispatchFanOut);
  expect(deployed.workers).toBe(5);
  expect(dispatchSettingsFromEnv({})).toEqual({ workers: 2 });
  expect(dispatchSettingsFromEnv({ DISPATCH_WORKERS: 'many' }).workers).toBe(2);
});
