import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { MeetingFanOut } from '../../shared/domain/runs.js';
import { boundedHttpHandler } from '../../shared/lambda/bounded-http.js';
import {
  MAX_SQS_DELAY_SECONDS,
  parseDeliveryMessage,
  parseQueueMessage,
  SqsDeliveryQueue,
  secondsToWait,
} from '../../shared/queue/sqs-queue.js';
import { SqsStandIn } from '../support/sqs-stand-in.js';

const sqs = new SqsStandIn();
const sent = sqs.sent;
let queueUrl: string;
beforeAll(async () => {
  await sqs.listen('knap-deliveries');
  queueUrl = sqs.url;
});
afterAll(() => sqs.close());

const NOW = Date.parse('2026-11-23T10:00:00Z');
/** The SDK's client as sqsClient makes it, with test credentials (it sends to the queue URL's own host). */
const client = (timeoutMs = 2_000) =>
  new SQSClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 2,
    requestHandler: boundedHttpHandler(timeoutMs),
  });

describe('SqsDeliveryQueue', () => {
  test('sends {"run_id"} with the delay; a wait beyond 15 minutes travels as not_before', async () => {
    sent.length = 0;
    const sqs = client();
    const queue = new SqsDeliveryQueue(queueUrl, sqs, () => NOW);
    await queue.enqueue('run_a', 0);
    await queue.enqueue('run_b', 27.3);
    await queue.enqueue('run_c', 900);
    await queue.enqueue('run_d', 3600);

    expect(sent.map((s) => s.target)).toEqual(Array(4).fill('AmazonSQS.SendMessage'));
    expect(sent.map((s) => s.input)).toEqual([
      { QueueUrl: queueUrl, MessageBody: '{"run_id":"run_a"}', DelaySeconds: 0 },
      { QueueUrl: queueUrl, MessageBody: '{"run_id":"run_b"}', DelaySeconds: 28 },
      { QueueUrl: queueUrl, MessageBody: '{"run_id":"run_c"}', DelaySeconds: 900 },
      {
        QueueUrl: queueUrl,
        MessageBody: '{"run_id":"run_d","not_before":"2026-11-23T11:00:00.000Z"}',
        DelaySeconds: MAX_SQS_DELAY_SECONDS,
      },
    ]);
  });

  test("signed for SQS in the region, to the queue URL's own host; a body SQS did not store as sent is an error", async () => {
    sent.length = 0;
    const queue = new SqsDeliveryQueue(queueUrl, client(), () => NOW);
    await queue.enqueue('run_a', 0);
    expect(sent[0]?.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=test\/\d{8}\/us-east-1\/sqs\/aws4_request, /);
    sqs.storedBody = 'something else';
    try {
      await expect(queue.enqueue('run_b', 0)).rejects.toThrow(/InvalidChecksumError/);
    } finally {
      sqs.storedBody = undefined;
    }
  });

  test('an SQS that takes the connection and never answers fails the send with a TimeoutError, in bounded time', async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => sockets.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const { port } = silent.address() as AddressInfo;
      const queue = new SqsDeliveryQueue(`http://127.0.0.1:${port}/123456789012/knap-deliveries`, client(200), () => NOW);
      const started = Date.now();
      await expect(queue.enqueue('run_a', 0)).rejects.toMatchObject({ name: 'TimeoutError' });
      // Two attempts of 200 ms and the SDK's backoff between them.
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(sockets.length).toBeGreaterThanOrEqual(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  test('forUrl gives one queue per URL', () => {
    expect(SqsDeliveryQueue.forUrl(queueUrl)).toBe(SqsDeliveryQueue.forUrl(queueUrl));
    expect(SqsDeliveryQueue.forUrl(`${queueUrl}-2`)).not.toBe(SqsDeliveryQueue.forUrl(queueUrl));
  });

  test('messages read back; anything else is null', () => {
    expect(parseDeliveryMessage('{"run_id":"run_a"}')).toEqual({ run_id: 'run_a' });
    expect(parseDeliveryMessage('{"run_id":"run_a","not_before":"2026-11-23T11:00:00.000Z"}')).toEqual({
      run_id: 'run_a',
      not_before: '2026-11-23T11:00:00.000Z',
    });
    for (const body of ['', 'nope', '[]', 'null', '{"run_id":5}', '{"run_id":""}', '{"run_id":"r","not_before":"soon"}']) {
      expect(parseDeliveryMessage(body)).toBeNull();
    }
    expect(secondsToWait({ run_id: 'r' }, NOW)).toBe(0);
    expect(secondsToWait({ run_id: 'r', not_before: '2026-11-23T11:00:00.000Z' }, NOW)).toBe(3600);
    expect(secondsToWait({ run_id: 'r', not_before: '2026-11-23T09:00:00.000Z' }, NOW)).toBe(0);
  });

  const FAN_OUT: MeetingFanOut = {
    meeting: { meeting_id: 'weekly', title: 'Weekly', occurred_at: null, transcript_url: null, user_id: 7 },
    client_id: 'knap_ci_a',
    org_name: 'acme',
    cursor: 'eyJwaGFzZSI6InNoYXJlZCIsImtleSI6bnVsbH0',
  };

  test('the rest of a meeting report: {"meeting_fan_out"}, never delayed, read back as such', async () => {
    sent.length = 0;
    const sqs = client();
    await new SqsDeliveryQueue(queueUrl, sqs, () => NOW).enqueueMeetingFanOut(FAN_OUT);
    expect(sent.map((s) => s.input)).toEqual([{ QueueUrl: queueUrl, MessageBody: JSON.stringify({ meeting_fan_out: FAN_OUT }) }]);
    expect(parseQueueMessage(String(sent[0]?.input.MessageBody))).toEqual({ fanOut: FAN_OUT });
  });

  test('run messages as earlier versions sent them still read as deliveries; broken fan-outs are null', () => {
    expect(parseQueueMessage('{"run_id":"run_a"}')).toEqual({ delivery: { run_id: 'run_a' } });
    expect(parseQueueMessage('{"run_id":"run_a","not_before":"2026-11-23T11:00:00.000Z"}')).toEqual({
      delivery: { run_id: 'run_a', not_before: '2026-11-23T11:00:00.000Z' },
    });
    expect(parseDeliveryMessage(JSON.stringify({ meeting_fan_out: FAN_OUT }))).toBeNull();
    const broken = [
      { ...FAN_OUT, cursor: '' },
      { ...FAN_OUT, client_id: 5 },
      { ...FAN_OUT, meeting: { ...FAN_OUT.meeting, meeting_id: '' } },
      { ...FAN_OUT, meeting: { ...FAN_OUT.meeting, user_id: 1.5 } },
      { ...FAN_OUT, meeting: null },
      null,
    ];
    for (const task of broken) expect(parseQueueMessage(JSON.stringify({ meeting_fan_out: task }))).toBeNull();
    for (const body of ['', 'nope', '[]', 'null', '{"run_id":""}']) expect(parseQueueMessage(body)).toBeNull();
  });
});
