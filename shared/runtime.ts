import { Logger } from '@aws-lambda-powertools/logger';
import { DEFAULT_RATE_LIMIT, MAX_RATE_LIMIT } from './domain/clients.js';
import { type Clock, systemClock } from './domain/clock.js';
import type { Repository } from './domain/repository.js';
import type { TokenKeyring } from './domain/sealed-tokens.js';
import type { DeliveryQueue } from './domain/webhooks.js';
import { keyringFromEnv } from './keys/token-keyring.js';
import { createDocumentClient, dynamoSettingsFromEnv } from './store/dynamo-client.js';
import { DynamoRepository } from './store/dynamo-repository.js';
import { DEFAULT_TABLE_NAME } from './store/table.js';

/** The few methods we log with; Powertools' Logger fits, and tests can capture lines. */
export interface Log {
  info(message: string, ...extra: Record<string, unknown>[]): void;
  warn(message: string, ...extra: Record<string, unknown>[]): void;
  error(message: string, ...extra: Record<string, unknown>[]): void;
}

/** What every handler and service needs from the outside world. */
export interface Deps {
  repo: Repository;
  clock: Clock;
  log: Log;
  /** Requests per minute of clients that have no limit of their own. */
  defaultRateLimit: number;
  /** Where new runs go to be delivered to webhooks. */
  deliveries: DeliveryQueue;
  /** The keys tokens are sealed with. */
  tokenKeys: TokenKeyring;
}

/**
 * Under `npm start` the delivery queue is a timer in the same process (local/), which
 * registers it here before the handlers load; deployed, DELIVERY_QUEUE_URL names the SQS queue.
 */
let localDeliveries: DeliveryQueue | undefined;
export const useLocalDeliveryQueue = (queue: DeliveryQueue | undefined): void => {
  localDeliveries = queue;
};

/** Forwards to the queue of the moment, so handlers built before it was registered still reach it. */
const deliveryQueueFromEnv = (env: NodeJS.ProcessEnv = process.env): DeliveryQueue => ({
  enqueue: async (runId, delaySeconds) => {
    if (env.DELIVERY_QUEUE_URL) {
      const { SqsDeliveryQueue } = await import('./queue/sqs-queue.js');
      return SqsDeliveryQueue.forUrl(env.DELIVERY_QUEUE_URL).enqueue(runId, delaySeconds);
    }
    if (!localDeliveries) throw new Error('No delivery queue: set DELIVERY_QUEUE_URL, or start the local stack');
    return localDeliveries.enqueue(runId, delaySeconds);
  },
});

/** DEFAULT_RATE_LIMIT, the deployment's limit for clients without one of their own (100 when unset or invalid). */
export const defaultRateLimitFromEnv = (env: NodeJS.ProcessEnv = process.env): number => {
  const limit = Number(env.DEFAULT_RATE_LIMIT);
  return Number.isInteger(limit) && limit >= 1 && limit <= MAX_RATE_LIMIT ? limit : DEFAULT_RATE_LIMIT;
};

export const tableNameFromEnv = (env: NodeJS.ProcessEnv = process.env): string => env.TABLE_NAME || DEFAULT_TABLE_NAME;

export const createLogger = (): Logger => new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'knap-api' });

let defaults: Deps | undefined;

/** Built on first use, from the environment, and then shared by every invocation of the container. */
export const defaultDeps = (): Deps => {
  if (!defaults) {
    defaults = {
      repo: new DynamoRepository(createDocumentClient(dynamoSettingsFromEnv()), tableNameFromEnv()),
      clock: systemClock,
      log: createLogger(),
      defaultRateLimit: defaultRateLimitFromEnv(),
      deliveries: deliveryQueueFromEnv(),
      tokenKeys: keyringFromEnv(),
    };
  }
  return defaults;
};
