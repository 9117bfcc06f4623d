import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SQSClient } from '@aws-sdk/client-sqs';
import { MAX_SQS_DELAY_SECONDS, parseDeliveryMessage, SqsDeliveryQueue, secondsToWait } from '../../shared/queue/sqs-queue.js';

/**
 * A stand-in for SQS on a local port that speaks its JSON protocol (AWS JSON 1.0) for
 * SendMessage, so the real SDK client and its checksum middleware run as they would against
 * AWS; it remembers what was sent.
 */
let server: Server;
let queueUrl: string;
const sent: { target: string; input: Record<string, unknown> }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const input = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
      sent.push({ target: String(request.headers['x-amz-target']), input });
      const md5 = createHash('md5').update(String(input.MessageBody)).digest('hex');
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(JSON.stringify({ MessageId: `m-${sent.length}`, MD5OfMessageBody: md5 }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  queueUrl = `http://127.0.0.1:${port}/123456789012/knap-deliveries`;
});
afterAll(async () => {
  server.close();
  await once(server, 'close');
});

const NOW = Date.parse('2026-11-23T10:00:00Z');
const client = () =>
  new SQSClient({
    endpoint: new URL(queueUrl).origin,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
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
    sqs.destroy();

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
});
