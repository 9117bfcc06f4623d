/**
 * Delivery of a run to its organization's webhook endpoints: one attempt per call, started
 * by the delivery queue (SQS deployed, a timer under npm start) after the run is created and
 * after each failed attempt.
 *
 * The queue is at-least-once, so an attempt first reads the run and does nothing unless it
 * is still `pending`; endpoints that already took the run (2xx) are not sent it again. Two
 * deliveries of one message at once may both send (receivers dedupe on `webhook-id`), but the
 * attempt is recorded once, conditionally on the count read, and only that one queues the
 * next: the other is refused and leaves no second chain of retries (docs/webhooks.md says
 * what a copy that comes later does). Every attempt is recorded on the run (attempts,
 * last_attempt_at, last_error, status) whatever happened, and the next attempt is queued
 * from here, so an endpoint's 4xx, 5xx or timeout is a recorded attempt, never an exception:
 * only the store or the queue failing throws (then the queue itself tries again).
 *
 * Outcomes that send nothing are recorded as one attempt too, so last_attempt_at says when
 * the decision was made: no endpoint in the organization is `no_endpoint`; a Knap deleted
 * since the run was made is `failed` with "Knap was deleted" (deleted Knaps never run).
 */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { epochSeconds, isoSeconds } from '../domain/clock.js';
import { REPORT_TOKEN_SECONDS, sealReportToken } from '../domain/report-tokens.js';
import { AnswerOutcomeSchema, isTerminalType, jsonWithin, MAX_IO_BYTES, type NewRunEvent } from '../domain/run-events.js';
import type { RunStatus, StoredRun } from '../domain/runs.js';
import { parseJson, toJson } from '../domain/storable-json.js';
import type { DeliveryAttempt, WebhookEndpoint } from '../domain/webhooks.js';
import { METRIC, type MetricName } from '../metrics.js';
import type { Deps } from '../runtime.js';
import { messageBody, reportUrlOf, runMessage, signedHeaders } from '../webhooks/message.js';
import { RETRY_POLICY, type RetryPolicy, retryDelaySeconds } from '../webhooks/retry.js';
import { type Resolver, type SendResult, sendWebhook } from '../webhooks/send.js';
import { urlPolicyFromEnv } from '../webhooks/urls.js';
import { appendRunEvent } from './run-events.js';

export interface DeliverySettings {
  /** http(s)://127.0.0.1 and localhost allowed: only against a local DynamoDB (npm start, tests). */
  allowLocalhost: boolean;
  /** For each endpoint's whole attempt (the contract's 10 s). */
  timeoutMs: number;
  retry: RetryPolicy;
  /** [0, 1), for the jitter of retry delays. */
  random: () => number;
  /** DNS; the system's when absent. */
  resolve?: Resolver;
  /** The API's base URL, under which each run's report URL is (REPORT_BASE_URL, else PUBLIC_BASE_URL). */
  reportBaseUrl: string;
}

export const DELIVERY_TIMEOUT_MS = 10_000;

/** From the environment: the URL policy's (urlPolicyFromEnv), and the contract's timeout and retries. */
export const deliverySettingsFromEnv = (env: NodeJS.ProcessEnv = process.env): DeliverySettings => ({
  allowLocalhost: urlPolicyFromEnv(env).allowLocalhost,
  timeoutMs: DELIVERY_TIMEOUT_MS,
  retry: RETRY_POLICY,
  random: Math.random,
  reportBaseUrl: env.REPORT_BASE_URL || env.PUBLIC_BASE_URL || 'http://127.0.0.1:3000',
});

export const KNAP_DELETED = 'Knap was deleted';
export const NO_ENDPOINT = 'No webhook endpoint in the organization';
/** last_error is shown in the run history; several endpoints' errors stay readable, and bounded. */
const MAX_ERROR_LENGTH = 1000;

const summarize = (errors: string[]): string => {
  const text = errors.join('; ');
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
};

const ATTEMPT_METRICS: Partial<Record<RunStatus, MetricName>> = {
  delivered: METRIC.runsDelivered,
  failed: METRIC.runsFailed,
  pending: METRIC.runDeliveryRetries,
};

/** A recorded attempt, by what became of its run (a run left with no endpoint counts as neither). */
const countAttempt = (deps: Deps, status: RunStatus): void => {
  const name = ATTEMPT_METRICS[status];
  if (name) deps.metrics.count(name);
};

/**
 * One delivery attempt of a run. Returns the run as it stands: after this attempt, or
 * untouched when it is no longer pending; null when there is no such run (e.g. past its
 * retention) or when another copy of the message recorded this attempt first. Sends to every
 * endpoint that still needs the run at once, so a slow endpoint costs the others nothing.
 */
export const deliverRun = async (
  deps: Deps,
  runId: string,
  settings: DeliverySettings = deliverySettingsFromEnv(),
): Promise<StoredRun | null> => {
  const stored = await deps.repo.getRun(runId);
  if (!stored) {
    deps.log.warn('No run to deliver', { run_id: runId });
    return null;
  }
  if (stored.run.status !== 'pending') return stored;
  const { run, orgName } = stored;
  const number = run.attempts + 1;
  const startedAt = deps.clock.now();
  const record = async (outcome: Omit<DeliveryAttempt, 'number' | 'id' | 'at'>, status: RunStatus): Promise<StoredRun | null> => {
    const recorded = { number, id: randomUUID(), at: isoSeconds(startedAt), ...outcome };
    const updated = await deps.repo.recordDeliveryAttempt(runId, recorded, status);
    if (!updated) {
      // Another copy of the message, handled at the same moment, recorded this attempt (or the run expired).
      deps.log.warn('Delivery attempt not recorded: already made, or the run is gone', { run_id: runId, attempts: number });
      return null;
    }
    countAttempt(deps, status);
    deps.log.info('Delivery attempt', {
      run_id: runId,
      status,
      attempts: updated.run.attempts,
      delivered_to: outcome.deliveredTo,
      error: outcome.error,
    });
    return updated;
  };

  const at = isoSeconds(startedAt);
  /** What an attempt that sent nothing records: one entry with no endpoint. */
  const nothingSent = (error: string, status: 'failed' | 'no_endpoint') => ({
    deliveredTo: [],
    error,
    entries: [{ at, endpoint_id: null, status, error, http_status: null }],
  });

  /** Nothing was sent, and nothing will be: the run is over (its last event says why). */
  const endsUnsent = async (error: string, status: 'failed' | 'no_endpoint') => {
    const updated = await record(nothingSent(error, status), status);
    if (updated) await recordEvents(deps, runId, [{ type: 'delivery_failed', at, endpoint_id: null, error }], true);
    return updated;
  };
  const knap = await deps.repo.getKnap(orgName, run.knap_uuid);
  if (!knap) return endsUnsent(KNAP_DELETED, 'failed');
  const endpoints = await deps.repo.listWebhookEndpoints(orgName);
  if (endpoints.length === 0 && stored.deliveredTo.length === 0) return endsUnsent(NO_ENDPOINT, 'no_endpoint');

  const waiting = endpoints.filter((endpoint) => !stored.deliveredTo.includes(endpoint.endpointId));
  // A report token of this attempt: 24 hours from now. Only in the message, never logged or recorded.
  const reporting = {
    report_url: reportUrlOf(settings.reportBaseUrl, run.run_id),
    report_token: await sealReportToken(
      { runId: run.run_id, orgName, expiresAt: epochSeconds(startedAt) + REPORT_TOKEN_SECONDS },
      deps.tokenKeys,
    ),
  };
  const body = messageBody(runMessage(run, knap.knap, startedAt, reporting));
  const send = (endpoint: WebhookEndpoint): Promise<SendResult> =>
    sendWebhook({ url: endpoint.url, body, headers: signedHeaders(endpoint.secret, run.run_id, startedAt, body) }, settings);
  const results = await Promise.all(waiting.map(send));

  const entries = waiting.map((endpoint, index) => {
    const result = results[index] as SendResult;
    return result.ok
      ? { at, endpoint_id: endpoint.endpointId, status: 'delivered' as const, error: null, http_status: result.status }
      : { at, endpoint_id: endpoint.endpointId, status: 'failed' as const, error: result.error, http_status: result.status };
  });
  const deliveredTo = entries.filter((entry) => entry.status === 'delivered').map((entry) => entry.endpoint_id);
  const errors = entries.flatMap((entry) => (entry.error === null ? [] : [entry.error]));
  // The events of this attempt: each endpoint that took the run, then the first outcome an answer reported.
  const events: NewRunEvent[] = deliveredTo.map((endpointId) => ({ type: 'delivered', at, endpoint_id: endpointId }));
  const reported = results.map(answeredOutcome).find((outcome) => outcome !== null);
  if (errors.length === 0) {
    const updated = await record({ deliveredTo, error: null, entries }, 'delivered');
    if (updated) await recordEvents(deps, runId, reported ? [...events, { ...reported, at }] : events);
    return updated;
  }

  // A redelivered run's retries count from its redelivery.
  const delay = retryDelaySeconds(number - (stored.retryBase ?? 0), settings.random, settings.retry);
  const updated = await record({ deliveredTo, error: summarize(errors), entries }, delay === null ? 'failed' : 'pending');
  if (updated && reported) events.push({ ...reported, at });
  if (updated && delay === null) {
    // The final failure for each endpoint still waiting; the run ends with it if no endpoint ever took it.
    for (const entry of entries) {
      if (entry.status === 'failed')
        events.push({ type: 'delivery_failed', at, endpoint_id: entry.endpoint_id, error: entry.error });
    }
    await recordEvents(deps, runId, events, updated.deliveredTo.length === 0);
  } else if (updated) {
    await recordEvents(deps, runId, events);
  }
  // Re-queued after the attempt is recorded: an attempt that fails to record is retried by
  // the queue instead, and never leaves two chains of retries behind.
  if (updated && delay !== null) await deps.deliveries.enqueue(runId, delay);
  return updated;
};

/**
 * What a 2xx answer reported: `{"outcome": "succeeded" | "failed", "output"?, "error"?}` as
 * JSON, with an output of at most 64 KB; anything else reports nothing.
 */
const answeredOutcome = (result: SendResult): NewRunEvent | null => {
  if (!result.ok || !result.body) return null;
  let parsed: unknown;
  try {
    parsed = parseJson(result.body);
  } catch {
    return null;
  }
  const answer = v.safeParse(AnswerOutcomeSchema, parsed);
  if (!answer.success) return null;
  const { outcome, output, error } = answer.output;
  if (outcome === 'failed') return { type: 'failed', at: '', message: null, error: error ?? null };
  if (!jsonWithin(output ?? null, MAX_IO_BYTES, toJson)) return null;
  return { type: 'succeeded', at: '', message: null, output: output ?? null };
};

/**
 * Appends an attempt's events to the run's chain, in order; `endsRun`: the last of them ends
 * the run (its delivery is over and reached no one). A chain already over takes no more. The
 * attempt is recorded whatever becomes of its events: a failure here is logged, never retried
 * into a second attempt.
 */
const recordEvents = async (deps: Deps, runId: string, events: NewRunEvent[], endsRun = false): Promise<void> => {
  try {
    for (const [index, event] of events.entries()) {
      const result = await appendRunEvent(deps, runId, event, {
        terminal: (endsRun && index === events.length - 1) || isTerminalType(event.type),
      });
      if (result === 'terminal') return;
    }
  } catch (error) {
    deps.log.warn('Run events of a delivery attempt not recorded', { run_id: runId, error: (error as Error).name });
  }
};
