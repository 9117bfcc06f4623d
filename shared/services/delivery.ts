/**
 * Delivery of a run to its organization's webhook endpoints, started by the delivery queue
 * (SQS deployed, timers under npm start). A run's message starts its delivery (deliverRun):
 * each endpoint that takes `knap.run` gets a delivery item and a queue message of its own,
 * and each of those messages is one attempt at that endpoint (deliverToEndpoint), which
 * queues its own retry. So one endpoint's stall or failures never hold up another endpoint's
 * deliveries, a retry goes only where it is needed, and the run's item does not grow with the
 * endpoints or the attempts (each endpoint's last attempts are on its delivery item).
 *
 * The queue is at-least-once: an attempt does nothing unless its delivery is still pending,
 * and it is recorded once, conditionally on the count read; only the copy whose write landed
 * queues the next attempt. Receivers dedupe on `webhook-id` (the run id) when two copies sent.
 */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { epochSeconds, isoSeconds } from '../domain/clock.js';
import { REPORT_TOKEN_SECONDS, sealReportToken } from '../domain/report-tokens.js';
import { AnswerOutcomeSchema, isTerminalType, jsonWithin, MAX_IO_BYTES, type NewRunEvent } from '../domain/run-events.js';
import { type DeliveryAttemptEntry, RUN_RETENTION_SECONDS, type RunStatus, type StoredRun } from '../domain/runs.js';
import { parseJson, toJson } from '../domain/storable-json.js';
import { type EndpointDelivery, isMessageId, signingSecrets, takesEvent } from '../domain/webhooks.js';
import { METRIC, type MetricName } from '../metrics.js';
import type { Deps } from '../runtime.js';
import { messageBody, RUN_EVENT_TYPE, reportUrlOf, runMessage, signedHeaders } from '../webhooks/message.js';
import { RETRY_POLICY, type RetryPolicy } from '../webhooks/retry.js';
import { type Resolver, type SendResult, sendWebhook } from '../webhooks/send.js';
import { urlPolicyFromEnv } from '../webhooks/urls.js';
import { judgedAttempt } from './endpoint-attempt.js';
import { disableAfterSecondsFromEnv, noteEndpointOutcome } from './endpoint-health.js';
import { appendRunEvent } from './run-events.js';
import { isOutcomeJob, queueOutcomeMessage } from './run-outcomes.js';
import { deliverMessageToEndpoint, sendOutcomeMessage } from './webhook-messages.js';
import { continueRecovery, isRecoveryPage } from './webhook-recovery.js';

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
  /** D: an endpoint is disabled automatically only once its streak of final failures is this old (endpoint-health.ts). */
  disableAfterSeconds?: number;
}

export const DELIVERY_TIMEOUT_MS = 10_000;

/** From the environment: the URL policy's (urlPolicyFromEnv), and the contract's timeout and retries. */
export const deliverySettingsFromEnv = (env: NodeJS.ProcessEnv = process.env): DeliverySettings => ({
  allowLocalhost: urlPolicyFromEnv(env).allowLocalhost,
  timeoutMs: DELIVERY_TIMEOUT_MS,
  retry: RETRY_POLICY,
  random: Math.random,
  reportBaseUrl: env.REPORT_BASE_URL || env.PUBLIC_BASE_URL || 'http://127.0.0.1:3000',
  disableAfterSeconds: disableAfterSecondsFromEnv(env),
});

export const KNAP_DELETED = 'Knap was deleted';
export const NO_ENDPOINT = 'No webhook endpoint in the organization';
export const ENDPOINT_REMOVED = 'The endpoint was removed';
export const ENDPOINT_DISABLED = 'The endpoint is disabled';
export const FAILED_EVERYWHERE = 'Delivery failed at every endpoint';
/** Errors of attempts that sent nothing and never will: not retried. */
const UNSENDABLE = new Set([KNAP_DELETED, ENDPOINT_REMOVED, ENDPOINT_DISABLED]);
/** last_error is shown in the run history; several endpoints' errors stay readable, and bounded. */
const MAX_ERROR_LENGTH = 1000;

const summarize = (errors: string[]): string => {
  const text = errors.join('; ');
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
};

/** A run's TTL (epoch seconds): its delivery items expire with it. */
const runExpiryOf = (createdAt: string): number => Math.floor(Date.parse(createdAt) / 1000) + RUN_RETENTION_SECONDS;

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

/** An attempt entry that sent nothing (no endpoint, Knap deleted): no endpoint, no answer. */
const unsentEntry = (at: string, error: string, status: 'failed' | 'no_endpoint'): DeliveryAttemptEntry => ({
  at,
  endpoint_id: null,
  status,
  error,
  response_status: null,
  duration_ms: null,
  response_body: null,
  http_status: null,
});

/**
 * Starts a run's delivery (a queue message with no endpoint: the run was made, or sent again
 * by an admin). Each endpoint of the organization that takes `knap.run` gets a delivery item
 * of its own and a queue message of its own: its attempts and retries never wait for another
 * endpoint's, and the run's item stays the same size whatever the endpoints and attempts.
 * A redelivery starts only the endpoints that failed (or, when the run had reached every
 * endpoint, all of them again). Returns the run as read; null when there is none.
 *
 * Outcomes that send nothing are recorded as one attempt on the run, so last_attempt_at says
 * when the decision was made: no endpoint is `no_endpoint`; a Knap deleted since the run was
 * made is `failed` with "Knap was deleted" (deleted Knaps never run).
 */
export const deliverRun = async (
  deps: Deps,
  runId: string,
  _settings: DeliverySettings = deliverySettingsFromEnv(),
): Promise<StoredRun | null> => {
  const stored = await deps.repo.getRun(runId);
  if (!stored) {
    deps.log.warn('No run to deliver', { run_id: runId });
    return null;
  }
  if (stored.run.status !== 'pending') return stored;
  const { run, orgName } = stored;
  const now = deps.clock.now();
  const at = isoSeconds(now);

  /** Nothing was sent, and nothing will be: the run is over (its last event says why). */
  const endsUnsent = async (error: string, status: 'failed' | 'no_endpoint') => {
    const attempt = {
      number: run.attempts + 1,
      id: randomUUID(),
      at,
      deliveredTo: [],
      error,
      entries: [unsentEntry(at, error, status)],
    };
    const updated = await deps.repo.recordDeliveryAttempt(runId, attempt, status);
    if (!updated) return null;
    countAttempt(deps, status);
    deps.log.info('Delivery attempt', { run_id: runId, status, attempts: updated.run.attempts, error });
    await recordEvents(deps, runId, [{ type: 'delivery_failed', at, endpoint_id: null, error }], true);
    return updated;
  };
  const [knap, endpoints, existing] = await Promise.all([
    deps.repo.getKnap(orgName, run.knap_uuid),
    deps.repo.listWebhookEndpoints(orgName),
    deps.repo.runDeliveries(runId),
  ]);
  const round = (stored.redeliveries ?? 0) + 1;
  if (!knap) return existing.length === 0 ? endsUnsent(KNAP_DELETED, 'failed') : settleRun(deps, runId, round);
  const targets = endpoints.filter((endpoint) => takesEvent(endpoint, RUN_EVENT_TYPE));
  if (targets.length === 0 && existing.length === 0 && stored.deliveredTo.length === 0)
    return endsUnsent(NO_ENDPOINT, 'no_endpoint');

  // A run that had reached every endpoint, sent again: to every endpoint again.
  const all = existing.length > 0 && existing.every((delivery) => delivery.status === 'delivered');
  const started = await deps.repo.startDeliveries(
    { runId, orgName, round, all, now: at, expiresAt: runExpiryOf(run.created_at) },
    targets.map((endpoint) => endpoint.endpointId),
  );
  for (const endpointId of started) await deps.deliveries.enqueue(runId, 0, { endpointId, orgName });
  // Nothing started (another copy of this message started them, or nothing needs the run): it may be over.
  if (started.length === 0) await settleRun(deps, runId, round);
  return stored;
};

/**
 * After a restart of npm start, whose waiting timers died with it: queues each of a pending
 * run's endpoint deliveries again at its due time, or starts the run's delivery if none was.
 */
export const resumeRunDelivery = async (deps: Deps, runId: string, settings?: DeliverySettings): Promise<void> => {
  const stored = await deps.repo.getRun(runId);
  if (stored?.run.status !== 'pending') return;
  const deliveries = await deps.repo.runDeliveries(runId);
  const pending = deliveries.filter((delivery) => delivery.status === 'pending');
  if (pending.length === 0) {
    await deliverRun(deps, runId, settings);
    return;
  }
  const now = deps.clock.now().getTime();
  for (const delivery of pending) {
    const due = delivery.nextAt ? Date.parse(delivery.nextAt) : now;
    await deps.deliveries.enqueue(runId, Math.max(0, (due - now) / 1000), {
      endpointId: delivery.endpointId,
      orgName: delivery.orgName,
    });
  }
};

/**
 * One attempt of a run's delivery to one endpoint (a queue message naming the endpoint). Does
 * nothing unless that delivery is pending (the queue keeps the wait: npm start's runs faster); records the attempt on the delivery item
 * (one write, conditional on the count read, so two copies of a message record it once and
 * only that one queues the next), counts it on the run, and queues the next attempt or, when
 * this was the endpoint's last, settles the run once no endpoint is left waiting. An
 * endpoint's 4xx, 5xx or timeout is a recorded attempt, never an exception: only the store or
 * the queue failing throws (then the queue itself tries again).
 */
export const deliverToEndpoint = async (
  deps: Deps,
  runId: string,
  endpointId: string,
  settings: DeliverySettings = deliverySettingsFromEnv(),
): Promise<EndpointDelivery | null> => {
  const [delivery, stored, endpoint] = await Promise.all([
    deps.repo.getDelivery(runId, endpointId),
    deps.repo.getRun(runId),
    deps.repo.getWebhookEndpoint(endpointId),
  ]);
  if (delivery?.status !== 'pending' || !stored) return delivery;
  const startedAt = deps.clock.now();
  const { run, orgName } = stored;
  const at = isoSeconds(startedAt);
  const number = delivery.attempts + 1;

  let result: SendResult;
  const knap = await deps.repo.getKnap(orgName, run.knap_uuid);
  if (!knap) result = { ok: false, status: null, error: KNAP_DELETED };
  else if (!endpoint || endpoint.orgName !== orgName) result = { ok: false, status: null, error: ENDPOINT_REMOVED };
  else if (endpoint.disabled) result = { ok: false, status: null, error: ENDPOINT_DISABLED };
  else {
    // A report token of this attempt: 24 hours from now. Only in the message, never logged or recorded.
    const reporting = {
      report_url: reportUrlOf(settings.reportBaseUrl, run.run_id),
      report_token: await sealReportToken(
        { runId: run.run_id, orgName, expiresAt: epochSeconds(startedAt) + REPORT_TOKEN_SECONDS },
        deps.tokenKeys,
      ),
    };
    const body = messageBody(runMessage(run, knap.knap, startedAt, reporting));
    result = await sendWebhook(
      { url: endpoint.url, body, headers: signedHeaders(signingSecrets(endpoint, startedAt), run.run_id, startedAt, body) },
      settings,
    );
  }
  // Nothing more can come of a deleted Knap or a removed or disabled endpoint: no retry.
  const hopeless = !result.ok && result.status === null && UNSENDABLE.has(result.error);
  const { record, delay } = judgedAttempt(
    result,
    { number, retryBase: delivery.retryBase, hopeless, endpointId, at, startedAt },
    settings,
  );
  const { entry, status } = record;
  const updated = await deps.repo.recordEndpointAttempt(runId, endpointId, record);
  if (!updated) {
    // Another copy of the message, handled at the same moment, recorded this attempt (or the run expired).
    deps.log.warn('Delivery attempt not recorded: already made', { run_id: runId, endpoint_id: endpointId, attempts: number });
    return null;
  }
  await deps.repo.noteEndpointAttempt(runId, at, entry.error);
  countAttempt(deps, status);
  deps.log.info('Delivery attempt', {
    run_id: runId,
    endpoint_id: endpointId,
    status,
    attempts: number,
    response_status: result.status,
    error: entry.error,
  });
  if (status === 'pending') {
    // Queued after the attempt is recorded: one that fails to record is retried by the queue instead.
    await deps.deliveries.enqueue(runId, delay as number, { endpointId, orgName });
    return updated;
  }
  if (!hopeless) await noteEndpointOutcome(deps, endpoint, status, settings.disableAfterSeconds ?? disableAfterSecondsFromEnv());
  const events: NewRunEvent[] = [
    status === 'delivered'
      ? { type: 'delivered', at, endpoint_id: endpointId }
      : { type: 'delivery_failed', at, endpoint_id: endpointId, error: entry.error ?? 'failed' },
  ];
  const reported = answeredOutcome(result);
  // An outcome the answer reported is announced by its append (run-events.ts), as a report's is.
  if (reported) events.push({ ...reported, at });
  await recordEvents(deps, runId, events);
  await settleRun(deps, runId, updated.round);
  return updated;
};

/**
 * Ends a pending run once none of its endpoint deliveries is waiting: `delivered` when none
 * failed, else `failed` (only while the run is still in `round`: a late settle of an earlier
 * round never ends a redelivery); a run that reached no endpoint at all is over (its last event says
 * so). Every endpoint that finishes calls this after its own write, so the last of them, whose
 * consistent read sees every other's, always ends the run.
 */
const settleRun = async (deps: Deps, runId: string, round: number): Promise<StoredRun | null> => {
  const deliveries = await deps.repo.runDeliveries(runId);
  if (deliveries.some((delivery) => delivery.status === 'pending')) return deps.repo.getRun(runId);
  const failed = deliveries.filter((delivery) => delivery.status === 'failed');
  const status: RunStatus = failed.length === 0 ? 'delivered' : 'failed';
  const lastError = failed.length === 0 ? null : summarize(failed.map((delivery) => delivery.log.at(-1)?.error ?? 'failed'));
  if (await deps.repo.finishRun(runId, status, lastError, round)) {
    const at = isoSeconds(deps.clock.now());
    if (failed.length === deliveries.length && deliveries.length > 0) {
      const appended = await recordEvents(
        deps,
        runId,
        [{ type: 'delivery_failed', at, endpoint_id: null, error: FAILED_EVERYWHERE }],
        true,
      );
      // Only the append that ended the chain announces: a redelivery that fails again, or a
      // run whose executor reported an outcome anyway, is not announced a second time.
      if (appended.length > 0) await queueOutcomeMessage(deps, runId, 'delivery_failed');
    }
  }
  return deps.repo.getRun(runId);
};

/**
 * The one entry point of the queue's delivery messages: a run's start, a run's outcome message
 * (run-outcomes.ts), or one attempt at one endpoint (of a run, or of a `msg_` message).
 */
export const handleDelivery = (
  deps: Deps,
  runId: string,
  endpointId: string | undefined,
  settings: DeliverySettings = deliverySettingsFromEnv(),
): Promise<unknown> => {
  if (!endpointId) return isOutcomeJob(runId) ? sendOutcomeMessage(deps, runId) : deliverRun(deps, runId, settings);
  if (isRecoveryPage(runId)) return continueRecovery(deps, runId, endpointId, (id, round) => settleRun(deps, id, round));
  return isMessageId(runId)
    ? deliverMessageToEndpoint(deps, runId, endpointId, settings)
    : deliverToEndpoint(deps, runId, endpointId, settings);
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
const recordEvents = async (
  deps: Deps,
  runId: string,
  events: NewRunEvent[],
  endsRun = false,
): Promise<NewRunEvent['type'][]> => {
  const appended: NewRunEvent['type'][] = [];
  try {
    for (const [index, event] of events.entries()) {
      const result = await appendRunEvent(deps, runId, event, {
        terminal: (endsRun && index === events.length - 1) || isTerminalType(event.type),
      });
      if (result === 'terminal') return appended;
      if (typeof result !== 'string') appended.push(event.type);
    }
  } catch (error) {
    deps.log.warn('Run events of a delivery attempt not recorded', { run_id: runId, error: (error as Error).name });
  }
  return appended;
};
