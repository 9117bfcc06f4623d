/** Webhook endpoints of an organization: where its Knaps' runs are delivered (Standard Webhooks). */
import { randomBytes } from 'node:crypto';
import type { DeliveryAttemptEntry, MeetingFanOut } from './runs.js';

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
}

export const WEBHOOK_EVENT_TYPES = [
  'knap.run',
  'knap.run.succeeded',
  'knap.run.failed',
  'endpoint.disabled',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What an admin may change on an endpoint (PATCH): members left out stay as they are. */
export interface WebhookEndpointChanges {
  eventTypes?: WebhookEventType[] | null;
  description?: string | null;
  disabled?: boolean;
  /** When `disabled` is set: the moment it was disabled, null when enabled. */
  disabledAt?: string | null;
}

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

/** Where runs wait for their next delivery attempt: SQS when deployed, a timer under npm start. */
export interface DeliveryQueue {
  /** Asks for an attempt to deliver `runId` in `delaySeconds` (0: now). */
  enqueue(runId: string, delaySeconds: number): Promise<void>;
  /** Asks for the next page of a meeting report's runs to be made now (services/meeting-fan-out.ts). */
  enqueueMeetingFanOut(task: MeetingFanOut): Promise<void>;
}
