/**
 * The deployed delivery queue: one SQS message per attempt to come, `{"run_id"}`, delayed
 * with DelaySeconds. SQS delays a message by 15 minutes at most; a longer wait travels as
 * `not_before` and the consumer (functions/deliver-runs) queues the message again until then.
 *
 * The same queue carries the rest of a large meeting report: `{"meeting_fan_out": {...}}`
 * (MeetingFanOut), a page of runs to make, never delayed. It has no `run_id`, so the two kinds
 * never mistake each other, and run messages keep the shape earlier versions sent.
 *
 * Sent through the SDK's SQS client (to the queue URL's own host, its `useQueueUrlAsEndpoint`),
 * each attempt bounded by the HTTP handler's timeouts (shared/lambda/bounded-http.ts) and the
 * whole send, retries included, by SEND_DEADLINE_MS through the SDK's `abortSignal`.
 */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import * as v from 'valibot';
import { type MeetingFanOut, MeetingFanOutSchema } from '../domain/runs.js';
import type { DeliveryQueue } from '../domain/webhooks.js';
import { boundedHttpHandler } from '../lambda/bounded-http.js';

/** SQS's own limit on DelaySeconds. */
export const MAX_SQS_DELAY_SECONDS = 900;

export interface DeliveryMessage {
  run_id: string;
  /** ISO 8601: do not attempt before this (a wait longer than SQS can delay). */
  not_before?: string;
}

/** Each attempt's bound: SQS answers a SendMessage in milliseconds. */
export const SEND_TIMEOUT_MS = 2_000;
/** The whole send's bound, retries included. */
export const SEND_DEADLINE_MS = 5_000;

/** The SDK's SQS client, bounded; in the environment's region, with its credentials (the SDK's default chain). */
export const sqsClient = (region: string | undefined = process.env.AWS_REGION): SQSClient =>
  new SQSClient({ region, maxAttempts: 3, requestHandler: boundedHttpHandler(SEND_TIMEOUT_MS) });

const queues = new Map<string, SqsDeliveryQueue>();
let sharedClient: SQSClient | undefined;

export class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    readonly url: string,
    /** The client to send with: the process's one (sqsClient) when not given. */
    private client?: SQSClient,
    private readonly now: () => number = Date.now,
  ) {}

  /** One per URL for the life of the Lambda container. */
  static forUrl(url: string): SqsDeliveryQueue {
    let queue = queues.get(url);
    if (!queue) {
      queue = new SqsDeliveryQueue(url);
      queues.set(url, queue);
    }
    return queue;
  }

  async enqueue(runId: string, delaySeconds: number): Promise<void> {
    const wait = Math.max(0, Math.ceil(delaySeconds));
    const message: DeliveryMessage = { run_id: runId };
    if (wait > MAX_SQS_DELAY_SECONDS) message.not_before = new Date(this.now() + wait * 1000).toISOString();
    await this.send(JSON.stringify(message), Math.min(wait, MAX_SQS_DELAY_SECONDS));
  }

  async enqueueMeetingFanOut(task: MeetingFanOut): Promise<void> {
    await this.send(JSON.stringify({ meeting_fan_out: task }));
  }

  private async send(body: string, delaySeconds?: number): Promise<void> {
    this.client ??= sharedSqsClient();
    await sendMessage(this.client, this.url, body, delaySeconds);
  }
}

/** The container's one SQS client (sqsClient), made on first use. */
export const sharedSqsClient = (): SQSClient => {
  sharedClient ??= sqsClient();
  return sharedClient;
};

/**
 * SendMessage, bounded by SEND_DEADLINE_MS retries included; the SDK's client checks the MD5
 * SQS answers against the body sent (InvalidChecksumError).
 */
export const sendMessage = async (client: SQSClient, url: string, body: string, delaySeconds?: number): Promise<void> => {
  const abortSignal = AbortSignal.timeout(SEND_DEADLINE_MS);
  try {
    await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body, DelaySeconds: delaySeconds }), { abortSignal });
  } catch (error) {
    // Out of time: a TimeoutError, as an attempt's own timeout is.
    if (abortSignal.aborted) throw Object.assign(new Error('SQS did not answer SendMessage in time'), { name: 'TimeoutError' });
    throw error;
  }
};

/** A message's JSON, or undefined when it is none. */
const parseBody = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
};

/** A delivery message as enqueue sends it; null when it is not one (it can never be delivered: drop it). */
const readDelivery = (value: unknown): DeliveryMessage | null => {
  if (typeof value !== 'object' || value === null) return null;
  const { run_id, not_before } = value as Record<string, unknown>;
  if (typeof run_id !== 'string' || run_id === '') return null;
  if (not_before !== undefined && (typeof not_before !== 'string' || Number.isNaN(Date.parse(not_before)))) return null;
  return not_before === undefined ? { run_id } : { run_id, not_before };
};

/** A message body as sent by enqueue; null when it is not one. */
export const parseDeliveryMessage = (body: string): DeliveryMessage | null => readDelivery(parseBody(body));

/** Seconds still to wait before the message's attempt; 0 when it is due. */
export const secondsToWait = (message: DeliveryMessage, now: number): number =>
  message.not_before ? Math.max(0, Math.ceil((Date.parse(message.not_before) - now) / 1000)) : 0;

/** Any message of the queue: a delivery attempt, or a page of a meeting report's runs; null when neither. */
export type QueueMessage = { delivery: DeliveryMessage } | { fanOut: MeetingFanOut };

export const parseQueueMessage = (body: string): QueueMessage | null => {
  const value = parseBody(body);
  if (typeof value === 'object' && value !== null && 'meeting_fan_out' in value) {
    const fanOut = v.safeParse(MeetingFanOutSchema, value.meeting_fan_out);
    return fanOut.success ? { fanOut: fanOut.output } : null;
  }
  const delivery = readDelivery(value);
  return delivery ? { delivery } : null;
};
