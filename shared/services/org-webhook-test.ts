/**
 * A test send (issue 44): one signed `webhook.test` message to one endpoint now, disabled or
 * not, answered with what that attempt did. Nothing is stored but its audit event: it is not
 * retried, and its id (`msg_...`) is its own.
 */
import { toJson } from '../domain/storable-json.js';
import { newMessageId, signingSecrets } from '../domain/webhooks.js';
import type { Deps } from '../runtime.js';
import { signedHeaders } from '../webhooks/message.js';
import { type SendOptions, sendWebhook } from '../webhooks/send.js';
import { urlPolicyFromEnv } from '../webhooks/urls.js';
import { recordAudit } from './audit-log.js';
import { knownId, notFound } from './org-admin.js';
import type { OrgAdmin } from './request-state.js';

export interface TestSendResult {
  /** The endpoint's HTTP status, or null when no answer came. */
  response_status: number | null;
  duration_ms: number | null;
  /** Null on a 2xx; else one line naming at most the URL's scheme, host and port. */
  error: string | null;
}

/** The contract's 10 s for a delivery attempt. */
const TEST_TIMEOUT_MS = 10_000;
/** Kept back from the request's deadline for the audit write and the answer. */
const TEST_MARGIN_MS = 1_500;

export const testSendOptions = (env: NodeJS.ProcessEnv = process.env): SendOptions => ({
  ...urlPolicyFromEnv(env),
  timeoutMs: TEST_TIMEOUT_MS,
});

/**
 * Sends to this organization's endpoint (another's is a 404) within the delivery timeout and
 * before `answerBy` (epoch ms, real time), so the request answers in time whatever the endpoint does.
 */
export const testOrgWebhook = async (
  deps: Deps,
  admin: OrgAdmin,
  endpointId: string,
  answerBy: number,
  options: SendOptions = testSendOptions(),
): Promise<TestSendResult> => {
  knownId(endpointId, 'webhook endpoint');
  const endpoint = await deps.repo.getWebhookEndpoint(endpointId);
  if (!endpoint || endpoint.orgName !== admin.orgName) throw notFound('webhook endpoint', endpointId);
  const now = deps.clock.now();
  const messageId = newMessageId();
  const body = toJson({ type: 'webhook.test', timestamp: now.toISOString(), data: { endpoint_id: endpointId } });
  const timeoutMs = Math.max(1, Math.min(options.timeoutMs, answerBy - Date.now() - TEST_MARGIN_MS));
  const result = await sendWebhook(
    { url: endpoint.url, body, headers: signedHeaders(signingSecrets(endpoint, now), messageId, now, body) },
    { ...options, timeoutMs },
  );
  await recordAudit(deps, admin.actor, admin.orgName, 'webhook.test', { type: 'webhook', id: endpointId });
  deps.log.info('Webhook test send', {
    message_id: messageId,
    endpoint_id: endpointId,
    response_status: result.status,
    error: result.ok ? null : result.error,
  });
  return { response_status: result.status, duration_ms: result.durationMs ?? null, error: result.ok ? null : result.error };
};
