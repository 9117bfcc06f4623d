/** POST /api/admin/webhooks/{endpoint_id}/recover: its body and answer. */
import * as v from 'valibot';
import { issueMessage } from '../domain/knap-input.js';
import { badRequest } from '../errors.js';

/** An ISO 8601 date-time with a zone (`Z` or an offset), as the API writes them. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export const RecoverWebhookRequestSchema = v.strictObject(
  {
    since: v.pipe(
      v.string('since must be an ISO 8601 date-time'),
      v.regex(ISO_DATE_TIME, 'since must be an ISO 8601 date-time, e.g. 2026-11-23T10:00:00Z'),
      v.check((text) => !Number.isNaN(Date.parse(text)), 'since must be an ISO 8601 date-time, e.g. 2026-11-23T10:00:00Z'),
      v.description('Every knap.run whose delivery to this endpoint finally failed at or after this moment is sent again'),
    ),
  },
  'Unknown field: send only since',
);
export type RecoverWebhookRequest = v.InferOutput<typeof RecoverWebhookRequestSchema>;

export const WebhookRecoverySchema = v.object({
  endpoint_id: v.string(),
  since: v.pipe(v.string(), v.description('As sent, to the second (UTC)')),
});
export type WebhookRecovery = v.InferOutput<typeof WebhookRecoverySchema>;

export const parseRecoverWebhook = (body: unknown): RecoverWebhookRequest => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  const parsed = v.safeParse(RecoverWebhookRequestSchema, body);
  if (!parsed.success) throw badRequest(issueMessage(parsed.issues[0]));
  return parsed.output;
};
