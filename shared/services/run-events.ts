/**
 * A run's events: appended (by its executor's reports and by its delivery), read, and watched.
 *
 * Appending is one conditional write at the id after the last (domain/run-events.ts): a Query
 * of the chain's last event, then a Put that holds only while the next id is free, read again
 * and retried when another writer took it. A change of the run's outcome is then written on
 * the run item too (a second write; if it is lost, a retried terminal report finds the chain
 * closed and writes the outcome again before it answers 409: see settleOutcome). The writer
 * whose write appended `succeeded` or `failed` then queues the run's outcome message, after the
 * outcome is on the run (run-outcomes.ts): one writer can append it, so one message.
 */
import { epochSeconds, isoSeconds } from '../domain/clock.js';
import { checkReportToken, type ReportClaims } from '../domain/report-tokens.js';
import {
  type AppendRefusal,
  appendTo,
  type ChainState,
  INITIAL_CHAIN,
  jsonWithin,
  MAX_IO_BYTES,
  type NewRunEvent,
  type RunEvent,
  type RunReport,
  rateRetryAfter,
  reportEvent,
} from '../domain/run-events.js';
import { RUN_RETENTION_SECONDS, type StoredRun } from '../domain/runs.js';
import { toJson } from '../domain/storable-json.js';
import { ApiError, bearerChallenge } from '../errors.js';
import type { Deps } from '../runtime.js';
import { bearerToken } from './bearer-token.js';
import { queueOutcomeMessage } from './run-outcomes.js';
import { signalRunEvent } from './run-signals.js';

/**
 * Writers racing for one run's next id try this often before giving up (a 503: retry). A
 * writer loses a try only to another writer's success, so up to this many writers at once
 * (the per-run report rate keeps them few) always land.
 */
const APPEND_TRIES = 16;

export type Appended = { event: RunEvent; state: ChainState };

/**
 * Appends `build(state)` at the id after the chain's last, as one conditional write, and
 * writes the run's outcome when the event changed it. `terminal`: the event ends the run
 * whatever its type (the last delivery failure of a run delivered nowhere).
 */
export const appendRunEvent = async (
  deps: Deps,
  runId: string,
  event: NewRunEvent,
  options: { terminal?: boolean } = {},
): Promise<Appended | AppendRefusal> => {
  const now = deps.clock.now();
  for (let attempt = 0; attempt < APPEND_TRIES; attempt += 1) {
    const head = await deps.repo.runChainHead(runId);
    const next = appendTo(head, event, epochSeconds(now), options.terminal);
    if (typeof next === 'string') {
      if (next === 'terminal') await settleOutcome(deps, runId, head, event);
      return next;
    }
    const stored = { ...event, id: next.lastId } as RunEvent;
    if (await deps.repo.putRunEvent(runId, stored, next, epochSeconds(now) + RUN_RETENTION_SECONDS)) {
      signalRunEvent(runId);
      if (next.outcome !== head.outcome) await writeOutcome(deps, runId, stored, next);
      if (isOutcomeType(stored.type)) await queueOutcomeMessage(deps, runId, 'reported');
      return { event: stored, state: next };
    }
  }
  throw new ApiError(503, 'The run is being reported too often at once: retry', { 'Retry-After': '1' });
};

const writeOutcome = async (deps: Deps, runId: string, event: RunEvent, state: ChainState): Promise<void> => {
  if (!state.outcome) return;
  const finished =
    event.type === 'succeeded'
      ? { at: event.at, output: event.output ?? null, error: null }
      : event.type === 'failed'
        ? { at: event.at, output: null, error: event.error }
        : undefined;
  await deps.repo.setRunOutcome(runId, state.outcome, finished);
};

const isOutcomeType = (type: RunEvent['type']): boolean => type === 'succeeded' || type === 'failed';

/**
 * The chain is closed: if it closed with an outcome whose write to the run item was lost (the
 * writer stopped between its two writes), write it now from the terminal event. Costs a read
 * only on this path (reports after the end), never on an accepted report. That writer never
 * queued the outcome message either: when the refused event is itself an outcome (a terminal
 * report retried, a webhook answer; both come from functions with the queue), it is queued now.
 */
const settleOutcome = async (deps: Deps, runId: string, head: ChainState, refused: NewRunEvent): Promise<void> => {
  if (head.outcome !== 'succeeded' && head.outcome !== 'failed') return;
  const run = await deps.repo.getRun(runId);
  if (!run || run.run.outcome === head.outcome) return;
  const { events } = await deps.repo.runEventsAfter(runId, head.lastId - 1, 1);
  const last = events[0];
  if (!last) return;
  await writeOutcome(deps, runId, last, head);
  if (isOutcomeType(refused.type)) await queueOutcomeMessage(deps, runId, 'reported');
};

// --- Reports -------------------------------------------------------------------------------

/** Reports of one organization per minute, over all its runs: a setting (REPORTS_PER_MINUTE_PER_ORG). */
export const DEFAULT_REPORTS_PER_MINUTE = 6_000;

export const reportsPerMinuteFromEnv = (env: NodeJS.ProcessEnv = process.env): number => {
  const limit = Number(env.REPORTS_PER_MINUTE_PER_ORG);
  return Number.isInteger(limit) && limit >= 1 ? limit : DEFAULT_REPORTS_PER_MINUTE;
};

const INVALID_REPORT_TOKEN = 'Invalid report token';
const refuseToken = (detail = INVALID_REPORT_TOKEN): ApiError =>
  new ApiError(401, detail, bearerChallenge(detail, 'invalid_token'));

/**
 * The report token of a request to `runId`'s report URL, checked with no I/O: its MAC under
 * the ring's report key, its run, its expiry. Anything else (an access, refresh or admin
 * token, another run's report token, an altered one) is the same 401.
 */
export const authenticateReport = async (deps: Deps, authorization: string | undefined, runId: string): Promise<ReportClaims> => {
  const token = bearerToken(authorization);
  const checked = await checkReportToken(token, runId, epochSeconds(deps.clock.now()), deps.tokenKeys);
  if (checked === 'expired') throw refuseToken('Report token has expired');
  if (typeof checked === 'string') throw refuseToken();
  return checked;
};

/**
 * POST /api/studio/runs/{run_id}/events: one report of the run's executor, metered per
 * organization (one conditional write beside the read of the chain), then appended.
 */
export const reportRun = async (
  deps: Deps,
  claims: ReportClaims,
  report: RunReport,
  limitPerMinute = reportsPerMinuteFromEnv(),
): Promise<RunEvent> => {
  if (report.type === 'succeeded' && !jsonWithin(report.output ?? null, MAX_IO_BYTES, toJson)) {
    throw new ApiError(400, `output must be at most ${MAX_IO_BYTES} bytes of JSON`);
  }
  const now = deps.clock.now();
  const seconds = epochSeconds(now);
  const window = seconds - (seconds % 60);
  if (!(await deps.repo.meterRunReport(claims.orgName, window, limitPerMinute))) {
    const wait = 60 - (seconds % 60);
    throw new ApiError(429, `Too many run reports in this organization: ${limitPerMinute} a minute. Retry in ${wait} s.`, {
      'Retry-After': String(wait),
    });
  }
  const result = await appendRunEvent(deps, claims.runId, reportEvent(report, isoSeconds(now)));
  switch (result) {
    case 'terminal':
      throw new ApiError(409, 'The run has ended: it takes no more reports');
    case 'too_many':
      throw new ApiError(409, 'The run has 100 reported events, the most it takes; a succeeded or failed report is still taken');
    case 'too_fast': {
      const wait = rateRetryAfter(seconds);
      throw new ApiError(429, `Too many reports of this run at once. Retry in ${wait} s.`, { 'Retry-After': String(wait) });
    }
    default:
      return result.event;
  }
};

// --- Reading -------------------------------------------------------------------------------

/** How many events one read of a chain takes at most (its reports are at most 100). */
const EVENTS_PAGE = 500;

/** Event 1: the run itself. */
export const createdEvent = (stored: StoredRun): RunEvent => ({ id: 1, type: 'created', at: stored.run.created_at });

/** The run's delivery is over with no endpoint that took it: it is over (and had no report window). */
const deliveredNowhere = (stored: StoredRun): boolean =>
  stored.run.status === 'no_endpoint' || (stored.run.status === 'failed' && stored.deliveredTo.length === 0);

/**
 * A run whose chain has no stored event can still be over: one an earlier version stored
 * that failed or had no endpoint (it never had a report token).
 */
const initialState = (stored: StoredRun): ChainState =>
  deliveredNowhere(stored) ? { ...INITIAL_CHAIN, terminal: true } : INITIAL_CHAIN;

/**
 * The run's events after id `after` (0: all of them), and whether the chain is over. One
 * Query from event `after` on: the event at `after` itself tells the state when nothing
 * newer exists.
 */
export const eventsSince = async (
  deps: Deps,
  stored: StoredRun,
  after: number,
): Promise<{ events: RunEvent[]; terminal: boolean; lastId: number }> => {
  const runId = stored.run.run_id;
  const events: RunEvent[] = after < 1 ? [createdEvent(stored)] : [];
  let from = Math.max(1, after - 1);
  let state: ChainState | null = null;
  for (;;) {
    const page = await deps.repo.runEventsAfter(runId, from, EVENTS_PAGE);
    for (const event of page.events) if (event.id > after) events.push(event);
    if (page.state) state = page.state;
    if (page.events.length < EVENTS_PAGE || !page.state) break;
    from = page.state.lastId;
  }
  const final = state ?? initialState(stored);
  return { events, terminal: final.terminal, lastId: state?.lastId ?? 1 };
};

/**
 * A run whose report window closed (24 hours after its last delivery attempt) with no
 * terminal report gets its `expired` event, written when someone looks: no sweeper, and the
 * same conditional write as any event (a second reader finds the chain closed).
 */
export const expireIfDue = async (deps: Deps, stored: StoredRun): Promise<void> => {
  const { run } = stored;
  if (run.status === 'pending' || run.last_attempt_at === null || deliveredNowhere(stored)) return;
  const closes = Date.parse(run.last_attempt_at) + 24 * 3600 * 1000;
  const now = deps.clock.now();
  if (now.getTime() < closes) return;
  const result = await appendRunEvent(deps, run.run_id, { type: 'expired', at: isoSeconds(now) });
  if (typeof result !== 'string') deps.log.info('Run report window closed', { run_id: run.run_id });
};
