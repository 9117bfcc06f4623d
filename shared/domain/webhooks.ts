/** Webhook endpoints of an organization: where its Knaps' runs are delivered (Standard Webhooks). */
import { createHash, randomBytes } from 'node:crypto';
import type { DeliveryAttemptEntry, MeetingFanOut } from './runs.js';

export const WEBHOOK_EVENT_TYPES = [
  'knap.run',
  'knap.run.succeeded',
  'knap.run.failed',
  'endpoint.disabled',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface WebhookEndpoint {
  endpointId: string;
  orgName: string;
  url: string;
  /** `whsec_<base64>`: signs every delivery; shown once, when the endpoint is added. */
  secret: string;
  createdAt: string;
  /** Null or absent: every event type. */
  eventTypes?: WebhookEventType[] | null;
  description?: string | null;
  /** Receives nothing (but a test send) while true. */
  disabled?: boolean;
  disabledAt?: string | null;
  /**
   * The secret before the last rotation, still signing beside `secret` until
   * `previousSecretExpiresAt` (ISO), so receivers can switch over. Absent on older items.
   */
  previousSecret?: string | null;
  previousSecretExpiresAt?: string | null;
  /**
   * Messages in a row that finally failed at this endpoint (absent or 0: none since the last
   * success), and when the first of them failed: automatic disabling (endpoint-health.ts).
   */
  failStreak?: number;
  failStreakSince?: string | null;
  /**
   * When the last AUTO_DISABLE_STREAK of those failed (ISO, oldest first), and the tag of the
   * write that recorded them (the next write's condition). Absent on items of earlier versions,
   * which have only the count and its start: see withFinalFailure.
   */
  recentFailures?: string[];
  failRev?: string | null;
}

/** How long a rotated-out secret keeps signing beside the new one. */
export const SECRET_OVERLAP_SECONDS = 24 * 60 * 60;

/** The secrets that sign a message sent at `now`: the current one, and the previous while it overlaps. */
export const signingSecrets = (endpoint: WebhookEndpoint, now: Date): string[] =>
  endpoint.previousSecret && endpoint.previousSecretExpiresAt && now.getTime() < Date.parse(endpoint.previousSecretExpiresAt)
    ? [endpoint.secret, endpoint.previousSecret]
    : [endpoint.secret];

/** An endpoint whose last this many messages all finally failed may be disabled automatically. */
export const AUTO_DISABLE_STREAK = 10;

/** An endpoint's final failures since its last success: what automatic disabling decides on. */
export interface FailureRecord {
  /** Messages in a row that finally failed. */
  streak: number;
  /** When the first of them failed. */
  since: string | null;
  /** When each of the last AUTO_DISABLE_STREAK of them failed (ISO seconds), oldest first: bounded. */
  recent: string[];
  /** The tag of the write that stored this record (null: none, or an item of an earlier version). */
  rev: string | null;
}

export const failureRecordOf = (endpoint: WebhookEndpoint): FailureRecord => ({
  streak: endpoint.failStreak ?? 0,
  since: endpoint.failStreakSince ?? null,
  recent: endpoint.recentFailures ?? [],
  rev: endpoint.failRev ?? null,
});

/**
 * The record after one more final failure at `at`, tagged `rev`. An item of an earlier version
 * counted its streak and its start only: that first failure keeps its time, and the others of
 * it count as failing at `at`, the latest they can have failed, so the rule never disables an
 * endpoint earlier than its words say (at most D later, once).
 */
export const withFinalFailure = (seen: FailureRecord, at: string, rev: string): FailureRecord => {
  const known =
    seen.recent.length > 0 || seen.streak === 0
      ? seen.recent
      : [seen.since ?? at, ...Array<string>(Math.min(seen.streak, AUTO_DISABLE_STREAK) - 1).fill(at)];
  return { streak: seen.streak + 1, since: seen.since ?? at, recent: [...known, at].slice(-AUTO_DISABLE_STREAK), rev };
};

/**
 * The contract's rule, word for word: the last AUTO_DISABLE_STREAK messages all finally failed
 * and the first of them failed at or before `startedBy` (now less D, ISO seconds). A streak
 * longer than that is judged by its last ones, never by when it began.
 */
export const isDisableDue = (record: FailureRecord, startedBy: string): boolean =>
  record.recent.length >= AUTO_DISABLE_STREAK && (record.recent[0] as string) <= startedBy;

/** A new tag for a failure record's write. */
export const newFailureRev = (): string => randomBytes(9).toString('base64url');

/** What an admin may change on an endpoint (PATCH): members left out stay as they are. */
export interface WebhookEndpointChanges {
  eventTypes?: WebhookEventType[] | null;
  description?: string | null;
  disabled?: boolean;
  /** When `disabled` is set: the moment it was disabled, null when enabled. */
  disabledAt?: string | null;
}

/** Whether an endpoint is sent messages of `type` now (a test send goes to a disabled endpoint too). */
export const takesEvent = (endpoint: WebhookEndpoint, type: WebhookEventType): boolean =>
  (type === 'webhook.test' || endpoint.disabled !== true) &&
  (endpoint.eventTypes === null || endpoint.eventTypes === undefined || endpoint.eventTypes.includes(type));

/**
 * A message other than `knap.run` (whose webhook-id is its run id): an id of its own, so a
 * receiver that dedupes on webhook-id never drops it as a repeat of the run.
 */
export interface EventMessage {
  /** `msg_` and 32 base64url characters: the webhook-id of every attempt. */
  messageId: string;
  orgName: string;
  type: WebhookEventType;
  /** The JSON body as signed and sent, the same on every attempt. */
  body: string;
  createdAt: string;
}

export const MESSAGE_ID_PATTERN = /^msg_[A-Za-z0-9_-]{32}$/;

/** `msg_` and 24 random bytes as 32 base64url characters. */
export const newMessageId = (): string => `msg_${randomBytes(24).toString('base64url')}`;

export const isMessageId = (id: string): boolean => MESSAGE_ID_PATTERN.test(id);

/**
 * The id of a run's one outcome message (`knap.run.succeeded` or `knap.run.failed`): `msg_`
 * and 32 base64url characters derived from the run id, never the run id itself. A run has one
 * terminal event, so one outcome message; deriving its id lets a retried send recognise the
 * message it already stored, and a receiver dedupe a copy sent twice.
 */
export const outcomeMessageId = (runId: string): string =>
  `msg_${createHash('sha256').update(`knap.run outcome\n${runId}`).digest().subarray(0, 24).toString('base64url')}`;

export const newEndpointId = (): string => `we_${randomBytes(12).toString('hex')}`;

/** A Standard Webhooks secret: `whsec_` and 32 random bytes, base64. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** The outcome of one delivery attempt to every endpoint that still needs the run. */
export interface DeliveryAttempt {
  /** 1 for the first attempt: recorded only on a run with `number - 1` attempts. */
  number: number;
  /** Unique to this attempt: a write retried after its answer was lost knows itself by it. */
  id: string;
  at: string;
  /** Endpoints that answered 2xx this time. */
  deliveredTo: string[];
  /** Null when every endpoint has the run now. Never a response body: it may hold secrets. */
  error: string | null;
  /** What happened at each endpoint (one entry without an endpoint when nothing was sent). */
  entries?: DeliveryAttemptEntry[];
}

/** One endpoint's delivery of a run: what a per-endpoint message of the queue names. */
export interface DeliveryTarget {
  endpointId: string;
  /** The lane it waits in under npm start (fair across organizations); not sent on SQS. */
  orgName: string;
}

/**
 * One endpoint's delivery of one run (the run's `knap.run` message to it): an item of its own,
 * so the run's item stays the same size whatever the endpoints and attempts.
 */
export interface EndpointDelivery {
  runId: string;
  endpointId: string;
  orgName: string;
  status: 'pending' | 'delivered' | 'failed';
  /** Attempts made to this endpoint, every redelivery's included. */
  attempts: number;
  /** `attempts` when the delivery was last started again: retries count from there. */
  retryBase: number;
  /** The round of the run's delivery it was last started in (1, then one more per redelivery). */
  round: number;
  /** Not before this (ISO): when the next attempt is due; null when none is waiting. */
  nextAt: string | null;
  /** When it finally failed (ISO), or null. */
  failedAt: string | null;
  /** The last attempts, oldest first (a bounded ring). */
  log: DeliveryAttemptEntry[];
}

/** A page of one endpoint's deliveries, the one attempted last first, with each one's message type when stored. */
export interface EndpointDeliveryPage {
  deliveries: { delivery: EndpointDelivery; messageType: string | null }[];
  next: string | null;
}

/** The attempts a delivery item keeps (its ring): with 1 KB of answer each, a few KB in all. */
export const DELIVERY_LOG_SIZE = 8;

/**
 * Whose a run's start is (a message with no endpoint yet): under npm start it waits in its
 * organization's lane, so one organization's burst of starts never holds up another's.
 */
export interface RunStartTarget {
  orgName: string;
  endpointId?: undefined;
}

/** Where runs wait for their next delivery attempt: SQS when deployed, a timer under npm start. */
export interface DeliveryQueue {
  /**
   * Asks for an attempt to deliver `runId` in `delaySeconds` (0: now): to the endpoint named
   * by `target`, or, without an endpoint, to start the run's delivery to every endpoint that
   * takes it (its organization, when given, is the lane it waits in under npm start).
   */
  enqueue(runId: string, delaySeconds: number, target?: DeliveryTarget | RunStartTarget): Promise<void>;
  /** Asks for the next page of a meeting report's runs to be made now (services/meeting-fan-out.ts). */
  enqueueMeetingFanOut(task: MeetingFanOut): Promise<void>;
}
