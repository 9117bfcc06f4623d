/**
 * A run as a Standard Webhooks message (https://www.standardwebhooks.com): a JSON body and the
 * webhook-id / webhook-timestamp / webhook-signature headers, signed with the endpoint's
 * `whsec_` secret by the `standardwebhooks` package, so receivers verify with any
 * Standard Webhooks library.
 */
import { Webhook } from 'standardwebhooks';
import type { Knap } from '../domain/knaps.js';
import type { Run } from '../domain/runs.js';
import { toJson } from '../domain/storable-json.js';

export const RUN_EVENT_TYPE = 'knap.run';

export interface RunMessage {
  type: typeof RUN_EVENT_TYPE;
  timestamp: string;
  data: { run: Run; knap: Knap };
}

export const runMessage = (run: Run, knap: Knap, now: Date): RunMessage => ({
  type: RUN_EVENT_TYPE,
  timestamp: now.toISOString(),
  data: { run, knap },
});

/** The body as sent and signed: tool_metadata's big numbers keep their digits. */
export const messageBody = (message: RunMessage): string => toJson(message);

/**
 * The headers of one attempt. `webhook-id` is the run id on every attempt and to every
 * endpoint, so a receiver drops a retry it already took; the timestamp is when it is sent
 * (whole seconds, as the signature covers it).
 */
export const signedHeaders = (secret: string, webhookId: string, sentAt: Date, body: string): Record<string, string> => {
  const at = new Date(Math.floor(sentAt.getTime() / 1000) * 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'Knap-Webhooks/1.0',
    'webhook-id': webhookId,
    'webhook-timestamp': String(at.getTime() / 1000),
    'webhook-signature': new Webhook(secret).sign(webhookId, at, body),
  };
};
