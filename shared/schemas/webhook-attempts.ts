/**
 * GET /api/admin/webhooks/{endpoint_id}/attempts: its query and answer. A module of its own:
 * only this route's bundle carries it.
 */
import * as v from 'valibot';
import { DeliveryAttemptEntrySchema } from '../domain/runs.js';
import { badRequest } from '../errors.js';
import { WebhookEndpointSchema } from './admin.js';
import { type ListKnapsQuery, ListKnapsQuerySchema } from './knap-request.js';

export const WebhookAttemptsQuerySchema = ListKnapsQuerySchema;

const nullableTimestamp = v.nullable(v.pipe(v.string(), v.isoTimestamp()));

export const WebhookAttemptSchema = v.object({
  at: DeliveryAttemptEntrySchema.entries.at,
  message_id: v.pipe(v.string(), v.description("The message's webhook-id: a knap.run's is its run id")),
  run_id: v.pipe(v.nullable(v.string()), v.description('The run, for knap.run; null for other messages')),
  type: v.pipe(
    v.nullable(v.string()),
    v.description('The event type; null for a message other than knap.run whose delivery began before types were kept on it'),
  ),
  attempt: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1),
    v.description("The attempt's number at this endpoint (1 for the first)"),
  ),
  status: DeliveryAttemptEntrySchema.entries.status,
  error: DeliveryAttemptEntrySchema.entries.error,
  response_status: DeliveryAttemptEntrySchema.entries.response_status,
  duration_ms: DeliveryAttemptEntrySchema.entries.duration_ms,
  response_body: DeliveryAttemptEntrySchema.entries.response_body,
  delivery_status: v.pipe(
    v.picklist(['pending', 'delivered', 'failed']),
    v.description("The message's delivery to this endpoint now: pending while a retry waits"),
  ),
});
export type WebhookAttempt = v.InferOutput<typeof WebhookAttemptSchema>;

export const WebhookAttemptPageSchema = v.object({
  endpoint: v.pipe(
    v.object({
      ...WebhookEndpointSchema.entries,
      fail_streak: v.pipe(
        v.pipe(v.number(), v.integer(), v.minValue(0)),
        v.description('Messages in a row that finally failed here (0 since the last success); 10 disable it'),
      ),
      fail_streak_since: v.pipe(nullableTimestamp, v.description('When the first of them failed; null when none')),
    }),
    v.description('The endpoint, as listed, with its failure streak'),
  ),
  attempts: v.pipe(
    v.array(WebhookAttemptSchema),
    v.description(
      "Each message's recorded attempts (its last 8), newest first; messages in the order of their last attempt, newest first",
    ),
  ),
  next_cursor: v.pipe(v.nullable(v.string()), v.description('Pass as `cursor` for the next page; null at the end')),
});
export type WebhookAttemptPage = v.InferOutput<typeof WebhookAttemptPageSchema>;

export const parseWebhookAttemptsQuery = (query: Record<string, string | undefined> | undefined): ListKnapsQuery => {
  const parsed = v.safeParse(WebhookAttemptsQuerySchema, query ?? {});
  if (!parsed.success) throw badRequest(parsed.issues[0].message);
  return parsed.output;
};
