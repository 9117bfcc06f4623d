/**
 * Watching a run: GET /api/studio/runs/{run_id}, its events as JSON, and as Server-Sent Events.
 *
 * API Gateway's HTTP API buffers a Lambda's answer, so a stream is a long poll: each request
 * answers the events after its Last-Event-ID at once, or waits for one (up to the wait, 10 s,
 * and never past its function's own deadline), reading the chain every POLL_MS; the client
 * reconnects with the last id it got (`retry:` says after how long). After the terminal event
 * the chain is over: the answer that carries it is the last one, and a resume from it is a 204.
 *
 * Organization admins watch any run of their organization through the same code (RunWatcher,
 * services/org-runs.ts), their streams counted per admin.
 *
 * Each waiting request holds a Lambda, so a client has at most 2 waiting at once: a lease
 * item with two slots (one conditional write to take a slot, one to give it back; a slot of a
 * stream cut off ends with its lease).
 */

import type { RunEvent } from '../domain/run-events.js';
import type { Run, StoredRun } from '../domain/runs.js';
import { ApiError } from '../errors.js';
import type { Deps } from '../runtime.js';
import { readKnap } from './knap-lifecycle.js';
import type { Caller } from './request-state.js';
import { eventsSince, expireIfDue } from './run-events.js';
import { nextRunSignal } from './run-signals.js';

export interface StreamSettings {
  /** The longest a stream waits for something new (the contract's 10 s). */
  waitMs: number;
  /** How often a waiting stream reads the chain. */
  pollMs: number;
  /** The `retry:` hint: how long a client waits before it reconnects. */
  retryMs: number;
  /** Waiting streams per client at once. */
  slots: number;
}

export const STREAM_SETTINGS: StreamSettings = { waitMs: 10_000, pollMs: 500, retryMs: 1_000, slots: 2 };

/** STREAM_WAIT_MS and STREAM_POLL_MS override the wait and the poll (tests, benchmarks). */
export const streamSettingsFromEnv = (env: NodeJS.ProcessEnv = process.env): StreamSettings => {
  const ms = (value: string | undefined, fallback: number) => {
    const parsed = Number(value);
    return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
  };
  return {
    ...STREAM_SETTINGS,
    waitMs: ms(env.STREAM_WAIT_MS, STREAM_SETTINGS.waitMs),
    pollMs: ms(env.STREAM_POLL_MS, STREAM_SETTINGS.pollMs),
  };
};

const RUN_ID = /^run_[A-Za-z0-9_-]{1,60}$/;
const runNotFound = (): ApiError => new ApiError(404, 'Run not found');

/** A run the caller sees (it sees its Knap), or a 404 whatever the reason: no such run, another organization's. */
export const readRunFor = async (deps: Deps, caller: Caller, runId: string): Promise<StoredRun> => {
  if (!RUN_ID.test(runId)) throw runNotFound();
  const stored = await deps.repo.getRun(runId);
  if (!stored || stored.orgName !== caller.client.orgName) throw runNotFound();
  try {
    await readKnap(deps, caller, stored.run.knap_uuid);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw runNotFound();
    throw error;
  }
  await expireIfDue(deps, stored);
  return stored;
};

/**
 * Who watches a run, besides an API client (the studio routes): an organization admin
 * (services/org-runs.ts). The same answers, from another way of finding the run.
 */
export interface RunWatcher {
  /** The run, its report window settled (expireIfDue), or a 404 when this watcher may not see it. */
  readRun(deps: Deps, runId: string): Promise<StoredRun>;
  /** Whose waiting-stream slots a stream takes (a key of its own per watcher). */
  slotOwner: string;
  /** Who holds the slots, for a 429's detail ("API client", "admin"). */
  slotHolder: string;
}

const clientWatcher = (caller: Caller): RunWatcher => ({
  readRun: (deps, runId) => readRunFor(deps, caller, runId),
  slotOwner: caller.client.clientId,
  slotHolder: 'API client',
});

const watcherOf = (who: Caller | RunWatcher): RunWatcher => ('readRun' in who ? who : clientWatcher(who));

/** GET /api/studio/runs/{run_id}. */
export const getRun = async (deps: Deps, caller: Caller, runId: string): Promise<Run> =>
  (await readRunFor(deps, caller, runId)).run;

/** A run's every event, in id order: what the JSON answer of .../events lists. */
export const allRunEvents = async (deps: Deps, stored: StoredRun): Promise<RunEvent[]> =>
  (await eventsSince(deps, stored, 0)).events;

/** GET /api/studio/runs/{run_id}/events (and the admins' route) as JSON: every event, in id order. */
export const listRunEvents = async (deps: Deps, who: Caller | RunWatcher, runId: string): Promise<{ events: RunEvent[] }> => {
  const stored = await watcherOf(who).readRun(deps, runId);
  return { events: await allRunEvents(deps, stored) };
};

/** `Last-Event-ID`: a non-negative integer, or absent (from the start). */
export const lastEventIdOf = (header: string | undefined): number => {
  if (header === undefined || header.trim() === '') return 0;
  if (!/^\d{1,10}$/.test(header.trim())) throw new ApiError(400, 'Last-Event-ID must be an event id (a non-negative integer)');
  return Number(header.trim());
};

/** What one stream answer says: the events to send, or nothing new (`events` empty), or the end already sent (`ended`). */
export type StreamAnswer = { kind: 'events'; events: RunEvent[]; terminal: boolean } | { kind: 'ended' };

/**
 * How long before `answerBy` a wait stops. `answerBy` is 250 ms before the function's end, and
 * a request's DynamoDB calls must be done 1 s before it (shared/http/api-handler.ts): a read
 * begun in the last 750 ms before `answerBy` would fail as DynamoDB unavailable (a 503) and
 * keep the slot until its lease ends. Stopping 1.5 s before leaves the last read and the
 * release 750 ms. With the 10 s function timeout a wait so ends about 8 s after the request.
 */
export const STOP_BEFORE_ANSWER_MS = 1_500;

/**
 * The events after `after`, waiting for one when there is none yet (see the header). Reads
 * while waiting: one Query each `pollMs` (2 a second by default), each of at most one item
 * when nothing is new.
 */
export const streamRunEvents = async (
  deps: Deps,
  who: Caller | RunWatcher,
  runId: string,
  after: number,
  answerBy: number,
  settings: StreamSettings = streamSettingsFromEnv(),
): Promise<StreamAnswer> => {
  const watcher = watcherOf(who);
  const stored = await watcher.readRun(deps, runId);
  const first = await eventsSince(deps, stored, after);
  if (first.events.length > 0) return { kind: 'events', events: first.events, terminal: first.terminal };
  if (first.terminal) return { kind: 'ended' };
  // Nothing new: wait, if the client has a slot, and stop early enough for the last read and
  // the slot's release to end before the request's DynamoDB deadline (STOP_BEFORE_ANSWER_MS).
  const stopAt = Math.min(Date.now() + settings.waitMs, answerBy - STOP_BEFORE_ANSWER_MS);
  const leaseNow = deps.clock.now().getTime();
  const leaseUntil = leaseNow + settings.waitMs + 5_000;
  const slot = await deps.repo.claimStreamSlot(watcher.slotOwner, settings.slots, leaseNow, leaseUntil);
  if (slot === null) {
    throw new ApiError(429, `At most ${settings.slots} event streams may wait at once per ${watcher.slotHolder}`, {
      'Retry-After': '10',
    });
  }
  try {
    while (Date.now() + settings.pollMs < stopAt) {
      // The next poll, or sooner when this process stored an event of the run (npm start).
      await nextRunSignal(runId, settings.pollMs);
      const next = await eventsSince(deps, stored, after);
      if (next.events.length > 0 || next.terminal) return { kind: 'events', events: next.events, terminal: next.terminal };
    }
    return { kind: 'events', events: [], terminal: false };
  } finally {
    await deps.repo.releaseStreamSlot(watcher.slotOwner, slot, leaseUntil).catch(() => {});
  }
};
