/**
 * The deployed delivery queue: one SQS message per attempt to come, `{"run_id"}`, delayed
 * with DelaySeconds. SQS delays a message by 15 minutes at most; a longer wait travels as
 * `not_before` and the consumer (functions/deliver-runs) queues the message again until then.
 *
 * The same queue carries the rest of a large meeting report: `{"meeting_fan_out": {...}}`
 * (MeetingFanOut), a page of runs to make, never delayed. It has no `run_id`, so the two kinds
 * never mistake each other, and run messages keep the shape earlier versions sent.
 *
 * Sent as SQS's JSON protocol over one signed call (shared/aws/json-call.ts), to the queue
 * URL's own host as the SDK's client sends it, with the environment's credentials: the SDK's
 * client would put `@smithy/core` on the cold start of every function that queues runs.
 */
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { environmentCredentials } from '../aws/environment.js';
import { callAwsJson, type JsonCallTarget } from '../aws/json-call.js';
import { type MeetingFanOut, MeetingFanOutSchema } from '../domain/runs.js';
import type { DeliveryQueue } from '../domain/webhooks.js';

/** SQS's own limit on DelaySeconds. */
export const MAX_SQS_DELAY_SECONDS = 900;

export interface DeliveryMessage {
  run_id: string;
  /** ISO 8601: do not attempt before this (a wait longer than SQS can delay). */
  not_before?: string;
}

/** Each attempt's bound: SQS answers a SendMessage in milliseconds. */
export const SEND_TIMEOUT_MS = 3_000;

/**
 * Where a queue's messages are sent, as the SDK's client sends them: the queue URL's origin
 * (its `useQueueUrlAsEndpoint`), the function's region and the credentials of its environment.
 */
export const queueTarget = (url: string, env: NodeJS.ProcessEnv = process.env): JsonCallTarget => {
  const region = env.AWS_REGION;
  if (!region) throw new Error('No AWS_REGION in the environment to send to the delivery queue in');
  const credentials = environmentCredentials(env);
  if (!credentials) throw new Error('No AWS credentials in the environment to send to the delivery queue with');
  return { url: new URL('/', url), region, credentials };
};

const queues = new Map<string, SqsDeliveryQueue>();

export class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    readonly url: string,
    /** Where to send (queueTarget): worked out at the first message when not given. */
    private target?: JsonCallTarget,
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

  /** SendMessage; the body SQS says it stored is checked against the one sent, as the SDK's client checks it. */
  private async send(body: string, delaySeconds?: number): Promise<void> {
    this.target ??= queueTarget(this.url);
    const answer = (await callAwsJson(this.target, {
      service: 'sqs',
      target: 'AmazonSQS.SendMessage',
      jsonVersion: '1.0',
      body: { QueueUrl: this.url, MessageBody: body, ...(delaySeconds === undefined ? {} : { DelaySeconds: delaySeconds }) },
      timeoutMs: SEND_TIMEOUT_MS,
    })) as { MessageId?: unknown; MD5OfMessageBody?: unknown };
    const md5 = createHash('md5').update(body).digest('hex');
    if (answer.MD5OfMessageBody !== md5) {
      throw new Error(`SQS stored a message body other than the one sent (MD5 ${String(answer.MD5OfMessageBody)}, not ${md5})`);
    }
  }
}

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
