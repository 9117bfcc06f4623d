import type { Context } from 'aws-lambda';
import type { AdminTokenVerifier } from './auth/admin-tokens.js';
import { DEFAULT_RATE_LIMIT, MAX_RATE_LIMIT } from './domain/clients.js';
import { type Clock, systemClock } from './domain/clock.js';
import { type QuotaLimits, quotasFromEnv } from './domain/quotas.js';
import { DEFAULT_ADMIN_RATE_LIMIT, MAX_ADMIN_RATE_LIMIT } from './domain/rate-limit.js';
import type { Repository } from './domain/repository.js';
import type { RequestScope } from './domain/request-scope.js';
import { type TokenKeyring, unavailableKeyring } from './domain/sealed-tokens.js';
import type { DeliveryQueue } from './domain/webhooks.js';
import { metricsFromEnv } from './lambda/metrics.js';
import { createLogger } from './logger.js';
import type { Metrics } from './metrics.js';
import { createDocumentClient, dynamoSettingsFromEnv } from './store/dynamo-client.js';
import { DEFAULT_TABLE_NAME } from './store/table.js';
import { type StoreClasses, TableRepository } from './store/table-repository.js';

/** The few methods we log with; Powertools' Logger fits, and tests can capture lines. */
export interface Log {
  info(message: string, ...extra: Record<string, unknown>[]): void;
  warn(message: string, ...extra: Record<string, unknown>[]): void;
  error(message: string, ...extra: Record<string, unknown>[]): void;
  /** Called at the start of each invocation, so every line names the function, its request and cold start. */
  addContext?(context: Context): void;
  /** The same log, every line carrying the work's correlation id, function and invocation id. */
  within?(scope: RequestScope): Log;
}

export { createLogger } from './logger.js';

/** A function that handles no tokens has no keys: any use is a wiring mistake, said plainly. */
const NO_TOKEN_KEYS = unavailableKeyring('This function was not given token keys (defaultDeps({ tokenKeys }))');

/** What every handler and service needs from the outside world. */
export interface Deps {
  repo: Repository;
  clock: Clock;
  log: Log;
  /** Business and operational figures (EMF in Lambda, nothing locally); flushed at the end of each invocation. */
  metrics: Metrics;
  /** Requests per minute of clients that have no limit of their own. */
  defaultRateLimit: number;
  /** Where new runs go to be delivered to webhooks. */
  deliveries: DeliveryQueue;
  /** The keys tokens are sealed with. */
  tokenKeys: TokenKeyring;
  /**
   * Until when (epoch seconds) tokens of the stored format, issued before sealing, are looked
   * up; unset, they are refused with no I/O (STORED_TOKENS_UNTIL, see storedTokensUntilFromEnv).
   */
  storedTokensUntil?: number;
  /** Verifies organization admins' access tokens (the admin functions only); absent, admin routes answer 503. */
  adminTokens?: AdminTokenVerifier;
  /** Requests per minute each admin may make of the admin API (ADMIN_RATE_LIMIT); 120 when absent. */
  adminRateLimit?: number;
  /** The deployment's per-organization quotas (QUOTA_* settings); absent: DEFAULT_QUOTAS. */
  quotas?: QuotaLimits;
}

/**
 * Under `npm start` the delivery queue is a timer in the same process (local/), which
 * registers it here before the handlers load; deployed, DELIVERY_QUEUE_URL names the SQS queue.
 */
let localDeliveries: DeliveryQueue | undefined;
export const useLocalDeliveryQueue = (queue: DeliveryQueue | undefined): void => {
  localDeliveries = queue;
};

/** Opens the deployed queue; given only by the functions that queue runs, so the others never bundle SQS. */
let openRemoteQueue: ((url: string) => DeliveryQueue) | undefined;

/** Forwards to the queue of the moment, so handlers built before it was registered still reach it. */
const deliveryQueueFromEnv = (env: NodeJS.ProcessEnv = process.env): DeliveryQueue => ({
  enqueue: async (runId, delaySeconds, target) => {
    if (env.DELIVERY_QUEUE_URL) {
      if (!openRemoteQueue) throw new Error('This function was not given the delivery queue (defaultDeps({ remoteDeliveries }))');
      return openRemoteQueue(env.DELIVERY_QUEUE_URL).enqueue(runId, delaySeconds, target);
    }
    if (!localDeliveries) throw new Error('No delivery queue: set DELIVERY_QUEUE_URL, or start the local stack');
    return localDeliveries.enqueue(runId, delaySeconds, target);
  },
  enqueueMeetingFanOut: async (task) => {
    if (env.DELIVERY_QUEUE_URL) {
      if (!openRemoteQueue) throw new Error('This function was not given the delivery queue (defaultDeps({ remoteDeliveries }))');
      return openRemoteQueue(env.DELIVERY_QUEUE_URL).enqueueMeetingFanOut(task);
    }
    if (!localDeliveries) throw new Error('No delivery queue: set DELIVERY_QUEUE_URL, or start the local stack');
    return localDeliveries.enqueueMeetingFanOut(task);
  },
});

/** DEFAULT_RATE_LIMIT, the deployment's limit for clients without one of their own (100 when unset or invalid). */
export const defaultRateLimitFromEnv = (env: NodeJS.ProcessEnv = process.env): number => {
  const limit = Number(env.DEFAULT_RATE_LIMIT);
  return Number.isInteger(limit) && limit >= 1 && limit <= MAX_RATE_LIMIT ? limit : DEFAULT_RATE_LIMIT;
};

/** ADMIN_RATE_LIMIT: requests per minute per organization admin (1-10,000; 120 when unset or unreadable). */
export const adminRateLimitFromEnv = (env: NodeJS.ProcessEnv = process.env): number => {
  const limit = Number(env.ADMIN_RATE_LIMIT);
  return Number.isInteger(limit) && limit >= 1 && limit <= MAX_ADMIN_RATE_LIMIT ? limit : DEFAULT_ADMIN_RATE_LIMIT;
};

/**
 * STORED_TOKENS_UNTIL (an ISO 8601 time): until when tokens issued before sealing are still
 * looked up in the table. Unset or unreadable, the stored-token path is retired.
 */
export const storedTokensUntilFromEnv = (env: NodeJS.ProcessEnv = process.env): number | undefined => {
  const until = Date.parse(env.STORED_TOKENS_UNTIL ?? '');
  return Number.isNaN(until) ? undefined : Math.floor(until / 1000);
};

export const tableNameFromEnv = (env: NodeJS.ProcessEnv = process.env): string => env.TABLE_NAME || DEFAULT_TABLE_NAME;

let defaults: Deps | undefined;
/** The repository of `defaults`, which the stores any handler names are added to. */
let tableRepository: TableRepository | undefined;

/** What only some functions need, so that only their bundles carry it (see defaultDeps). */
export interface DepsParts {
  /** The stores of the aggregates the function uses (each route module's `stores`); `npm start` gives them all. */
  stores?: StoreClasses;
  /** Functions that seal or open tokens: the keyring (Secrets Manager when deployed). */
  tokenKeys?: () => TokenKeyring;
  /** Functions that queue runs: how to open the SQS queue DELIVERY_QUEUE_URL names. */
  remoteDeliveries?: (url: string) => DeliveryQueue;
  /** Admin functions: the admin token verifier (ADMIN_ISSUER...; see shared/auth/admin-tokens.ts). */
  adminTokens?: () => AdminTokenVerifier | undefined;
}

/**
 * Built on first use, from the environment, and then shared by every invocation of the
 * container (and, under `npm start`, by every handler: the parts any of them gives are added).
 */
export const defaultDeps = (parts: DepsParts = {}): Deps => {
  tableRepository ??= new TableRepository(createDocumentClient(dynamoSettingsFromEnv()), tableNameFromEnv(), {});
  defaults ??= {
    repo: tableRepository,
    clock: systemClock,
    log: createLogger(),
    metrics: metricsFromEnv(),
    defaultRateLimit: defaultRateLimitFromEnv(),
    adminRateLimit: adminRateLimitFromEnv(),
    deliveries: deliveryQueueFromEnv(),
    tokenKeys: NO_TOKEN_KEYS,
    storedTokensUntil: storedTokensUntilFromEnv(),
    quotas: quotasFromEnv(),
  };
  if (parts.stores) tableRepository.addStores(parts.stores);
  if (parts.tokenKeys && defaults.tokenKeys === NO_TOKEN_KEYS) defaults.tokenKeys = parts.tokenKeys();
  if (parts.adminTokens && !defaults.adminTokens) defaults.adminTokens = parts.adminTokens();
  openRemoteQueue ??= parts.remoteDeliveries;
  return defaults;
};
