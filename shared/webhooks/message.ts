/**
 * A run as a Standard Webhooks message (https://www.standardwebhooks.com): a JSON body and the
 * webhook-id / webhook-timestamp / webhook-signature headers, signed with the endpoint's
 * `whsec_` secret by the `standardwebhooks` package, so receivers verify with any
 * Standard Webhooks library.
 */
import { Webhook } from 'standardwebhooks';
import * as v from 'valibot';
import { type Knap, KnapSchema } from '../domain/knaps.js';
import { type Run, RunSchema } from '../domain/runs.js';
import { toJson } from '../domain/storable-json.js';

export const RUN_EVENT_TYPE = 'knap.run';

/** Where and with what the executor reports back: only in a `knap.run` message, never anywhere else. */
export interface RunReporting {
  report_url: string;
  report_token: string;
}

/** The run as a `knap.run` message carries it: with where to report, and the credential to. */
export const MessageRunSchema = v.object({
  ...RunSchema.entries,
  report_url: v.pipe(v.string(), v.url(), v.description("POST the run's events here (`<base>/api/studio/runs/<run_id>/events`)")),
  report_token: v.pipe(
    v.string(),
    v.startsWith('knap_rpt_'),
    v.description(
      'Bearer credential for report_url alone, good for 24 hours from this attempt and never after the run ended. Keep it secret; it is in no other message or answer',
    ),
  ),
});

/** The body of a `knap.run` message (the OpenAPI document's `webhooks` entry describes it). */
export const RunMessageSchema = v.object({
  type: v.literal(RUN_EVENT_TYPE),
  timestamp: v.pipe(v.string(), v.isoTimestamp(), v.description('When this attempt was made, ISO 8601 UTC')),
  data: v.pipe(
    v.object({ run: MessageRunSchema, knap: KnapSchema }),
    v.description(
      'run: the run as it stood before this attempt (attempts is 0 on the first), with where and how to report; knap: the Knap as it is now',
    ),
  ),
});
export type RunMessage = v.InferOutput<typeof RunMessageSchema>;

export const runMessage = (run: Run, knap: Knap, now: Date, reporting: RunReporting): RunMessage => ({
  type: RUN_EVENT_TYPE,
  timestamp: now.toISOString(),
  data: { run: { ...run, ...reporting }, knap },
});

/** A run's report URL under the API's base URL. */
export const reportUrlOf = (baseUrl: string, runId: string): string =>
  `${baseUrl.replace(/\/$/, '')}/api/studio/runs/${encodeURIComponent(runId)}/events`;

/** The body as sent and signed: tool_metadata's big numbers keep their digits. */
export const messageBody = (message: RunMessage): string => toJson(message);

/**
 * The headers of one attempt, signed by each of `secrets` (two during a rotation's overlap:
 * `webhook-signature` lists one `v1,` entry per secret, space-separated, as Standard Webhooks
 * receivers expect). `webhook-id` is the run id on every attempt and to every
 * endpoint, so a receiver drops a retry it already took; the timestamp is when it is sent
 * (whole seconds, as the signature covers it).
 */
export const signedHeaders = (
  secrets: string | readonly string[],
  webhookId: string,
  sentAt: Date,
  body: string,
): Record<string, string> => {
  const at = new Date(Math.floor(sentAt.getTime() / 1000) * 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'Knap-Webhooks/1.0',
    'webhook-id': webhookId,
    'webhook-timestamp': String(at.getTime() / 1000),
    'webhook-signature': (typeof secrets === 'string' ? [secrets] : secrets)
      .map((secret) => new Webhook(secret).sign(webhookId, at, body))
      .join(' '),
  };
};
