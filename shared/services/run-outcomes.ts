/**
 * A run's outcome message (`knap.run.succeeded` / `knap.run.failed`) is announced by whoever
 * appended the event that ended its chain, and only by that writer: the appended `succeeded` or
 * `failed` event (`reason: "reported"`, from the executor's report or its webhook answer), or the
 * final `delivery_failed` of a run delivered nowhere (`reason: "delivery_failed"`). The chain's
 * one conditional write decides who that is, so a report racing the webhook answer, or a
 * report retried, announces nothing more.
 *
 * The writer only queues a job (`outcome.<reason>.<run_id>` on the delivery queue, one send); the
 * deliverer sends the message (webhook-messages.ts sendOutcomeMessage) under the run's one
 * outcome message id, so a failure there is retried by the queue and never sent twice. The
 * function that took the report reads no endpoint and holds no signing secret.
 *
 * Lost only when the queue refuses the job (logged as an error) or the writer stops between
 * its outcome write and the send; a writer that stops before its outcome write is made good by
 * the next terminal report (run-events.ts settleOutcome queues the job then).
 */
import type { RunOutcome } from '../domain/run-events.js';
import type { Deps } from '../runtime.js';

export type OutcomeReason = 'reported' | 'delivery_failed';
export type OutcomeMessageType = 'knap.run.succeeded' | 'knap.run.failed';

const JOB_PREFIX = 'outcome.';

export const outcomeJobId = (runId: string, reason: OutcomeReason): string => `${JOB_PREFIX}${reason}.${runId}`;

export const isOutcomeJob = (id: string): boolean => id.startsWith(JOB_PREFIX);

export const readOutcomeJob = (id: string): { runId: string; reason: OutcomeReason } | null => {
  const match = /^outcome\.(reported|delivery_failed)\.(.+)$/.exec(id);
  return match ? { reason: match[1] as OutcomeReason, runId: match[2] as string } : null;
};

/** The message a job sends: a reported outcome's own type, or `knap.run.failed` for a delivery that failed everywhere. */
export const outcomeMessageType = (reason: OutcomeReason, outcome: RunOutcome | null | undefined): OutcomeMessageType | null => {
  if (reason === 'delivery_failed') return 'knap.run.failed';
  if (outcome === 'succeeded') return 'knap.run.succeeded';
  if (outcome === 'failed') return 'knap.run.failed';
  return null;
};

/**
 * Queues the run's outcome message. Never throws: the run's record stands whatever becomes of
 * its announcement (a report is answered 201 all the same), so a refusal is logged loudly.
 */
export const queueOutcomeMessage = async (deps: Deps, runId: string, reason: OutcomeReason): Promise<void> => {
  try {
    await deps.deliveries.enqueue(outcomeJobId(runId, reason), 0);
  } catch (error) {
    deps.log.error('Run outcome message not queued: it will not be sent', {
      run_id: runId,
      reason,
      error: (error as Error).name,
    });
  }
};
