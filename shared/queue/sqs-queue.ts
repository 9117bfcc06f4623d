/**
 * The deployed delivery queue: one SQS message per attempt to come, `{"run_id"}` (start a
 * run's delivery) or `{"run_id", "endpoint_id"}` (one attempt at one endpoint), delayed
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
import type { MeetingFanOut } from '../domain/runs.js';
import type { DeliveryQueue, DeliveryTarget, RunStartTarget } from '../domain/webhooks.js';
import { boundedHttpHandler } from '../lambda/bounded-http.js';
import type { DeliveryMessage } from './messages.js';

export * from './messages.js';

/** SQS's own limit on DelaySeconds. */
export const MAX_SQS_DELAY_SECONDS = 900;

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

  async enqueue(runId: string, delaySeconds: number, target?: DeliveryTarget | RunStartTarget): Promise<void> {
    const wait = Math.max(0, Math.ceil(delaySeconds));
    const message: DeliveryMessage = { run_id: runId };
    if (target?.endpointId) message.endpoint_id = target.endpointId;
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
