/**
 * What happened to a run, as a chain of events with per-run integer ids: `created` (id 1, the
 * run itself), delivery events (`delivered`, `delivery_failed`), what its executor reported
 * (`running`, `progress`, `succeeded`, `failed`) and `expired` (the report window closed with
 * no terminal report).
 *
 * The chain is appended one event at a time, each at the id after the last one, by a write
 * that holds only while that id is free: ids are dense, in stored order, and two writers
 * racing for one id cannot both land (the loser reads the chain again and tries the next id).
 * Each event carries the chain's state after it (ChainState), so the one read of the last
 * event before a write tells the writer all it must check: terminal, how many reports, the
 * run's outcome so far, the run's report rate.
 */
import * as v from 'valibot';
import { sizeBound } from './storable-json.js';

export const RUN_EVENT_TYPES = [
  'created',
  'delivered',
  'delivery_failed',
  'running',
  'progress',
  'succeeded',
  'failed',
  'expired',
] as const;
export type RunEventType = (typeof RUN_EVENT_TYPES)[number];

export const REPORT_TYPES = ['running', 'progress', 'succeeded', 'failed'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const RUN_OUTCOMES = ['running', 'succeeded', 'failed'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

/** At most this many reported events per run (a terminal report is always taken). */
export const MAX_REPORTS_PER_RUN = 100;
/** At most this many reports of one run in one REPORT_RATE_WINDOW_SECONDS (a terminal report is always taken). */
export const MAX_REPORTS_PER_WINDOW = 10;
export const REPORT_RATE_WINDOW_SECONDS = 1;
/** Bytes of JSON in `input` and `output`; characters... bytes of UTF-8 in `message` and `error`. */
export const MAX_IO_BYTES = 64 * 1024;
export const MAX_TEXT_BYTES = 1024;

const timestamp = v.pipe(v.string(), v.isoTimestamp(), v.description('ISO 8601, UTC'));
const id = v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Per run, 1, 2, 3... in the order stored'));
const base = { id, at: timestamp };
const message = v.pipe(v.nullable(v.string()), v.description('What the executor said (at most 1 KB), or null'));

export const RunEventSchema = v.variant('type', [
  v.object({ ...base, type: v.literal('created') }),
  v.object({ ...base, type: v.literal('delivered'), endpoint_id: v.string() }),
  v.object({
    ...base,
    type: v.literal('delivery_failed'),
    endpoint_id: v.pipe(v.nullable(v.string()), v.description('null when nothing was sent (no endpoint, Knap deleted)')),
    error: v.pipe(
      v.string(),
      v.description("The final failure for that endpoint (never a response body, a URL's path or query)"),
    ),
  }),
  v.object({ ...base, type: v.literal('running'), message }),
  v.object({ ...base, type: v.literal('progress'), message }),
  v.object({
    ...base,
    type: v.literal('succeeded'),
    message,
    output: v.pipe(v.unknown(), v.description('A JSON value of at most 64 KB, or null')),
  }),
  v.object({ ...base, type: v.literal('failed'), message, error: v.pipe(v.nullable(v.string()), v.description('At most 1 KB')) }),
  v.object({ ...base, type: v.literal('expired') }),
]);
export type RunEvent = v.InferOutput<typeof RunEventSchema>;
/** An event before the chain gives it its id. */
export type NewRunEvent = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, 'id'> : never) : never;

export const RunEventListSchema = v.object({
  events: v.pipe(v.array(RunEventSchema), v.description('In id order')),
});

/** The chain's state after an event: stored with each event, read with the last one. */
export interface ChainState {
  lastId: number;
  terminal: boolean;
  /** Reported events so far (running, progress, succeeded, failed). */
  reported: number;
  outcome: RunOutcome | null;
  /** The report-rate window (epoch seconds, a multiple of REPORT_RATE_WINDOW_SECONDS) and its count. */
  rateWindow: number;
  rateCount: number;
}

/** A run's chain before anything is stored: `created` (the run item itself) is event 1. */
export const INITIAL_CHAIN: ChainState = {
  lastId: 1,
  terminal: false,
  reported: 0,
  outcome: null,
  rateWindow: 0,
  rateCount: 0,
};

export const isTerminalType = (type: RunEventType): boolean => type === 'succeeded' || type === 'failed' || type === 'expired';

export type AppendRefusal = 'terminal' | 'too_many' | 'too_fast';

/**
 * The chain's state once `event` is appended to it, or why it may not be. `terminal` marks
 * an event that ends the run whatever its type (the last delivery failure of a run delivered
 * nowhere).
 */
export const appendTo = (
  state: ChainState,
  event: NewRunEvent,
  nowSeconds: number,
  terminal = isTerminalType(event.type),
): ChainState | AppendRefusal => {
  if (state.terminal) return 'terminal';
  const reported = (REPORT_TYPES as readonly string[]).includes(event.type);
  const next: ChainState = { ...state, lastId: state.lastId + 1, terminal };
  if (!reported) return next;
  if (!terminal && state.reported >= MAX_REPORTS_PER_RUN) return 'too_many';
  const window = nowSeconds - (nowSeconds % REPORT_RATE_WINDOW_SECONDS);
  const count = window === state.rateWindow ? state.rateCount : 0;
  if (!terminal && count >= MAX_REPORTS_PER_WINDOW) return 'too_fast';
  next.reported = state.reported + 1;
  next.rateWindow = window;
  next.rateCount = count + 1;
  if (event.type === 'succeeded' || event.type === 'failed') next.outcome = event.type;
  else if (state.outcome === null) next.outcome = 'running';
  return next;
};

/** When the rate window of a refused report ends (seconds from now, at least 1). */
export const rateRetryAfter = (nowSeconds: number): number =>
  Math.max(1, REPORT_RATE_WINDOW_SECONDS - (nowSeconds % REPORT_RATE_WINDOW_SECONDS));

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** A JSON value is small enough (toJson's bytes, bounded first without writing it). */
export const jsonWithin = (value: unknown, bytes: number, write: (value: unknown) => string): boolean => {
  const bound = sizeBound(value);
  if (bound >= 0 && bound <= bytes) return true;
  if (bound < 0) return false;
  return Buffer.byteLength(write(value), 'utf8') <= bytes;
};

/** POST /api/studio/runs/{run_id}/events body. */
export const RunReportSchema = v.pipe(
  v.object({
    type: v.picklist(REPORT_TYPES, "type must be one of 'running', 'progress', 'succeeded', 'failed'"),
    message: v.nullish(
      v.pipe(
        v.string('message must be a string'),
        v.check((text) => utf8Bytes(text) <= MAX_TEXT_BYTES, 'message must be at most 1024 bytes'),
      ),
    ),
    output: v.optional(v.unknown()),
    error: v.nullish(
      v.pipe(
        v.string('error must be a string'),
        v.check((text) => utf8Bytes(text) <= MAX_TEXT_BYTES, 'error must be at most 1024 bytes'),
      ),
    ),
  }),
  v.check((report) => report.output === undefined || report.type === 'succeeded', 'output is for succeeded reports only'),
  v.check((report) => report.error == null || report.type === 'failed', 'error is for failed reports only'),
);
export type RunReport = v.InferOutput<typeof RunReportSchema>;

/** The event a report makes (its output checked for size by the caller). */
export const reportEvent = (report: RunReport, at: string): NewRunEvent => {
  const message = report.message ?? null;
  switch (report.type) {
    case 'running':
      return { type: 'running', at, message };
    case 'progress':
      return { type: 'progress', at, message };
    case 'succeeded':
      return { type: 'succeeded', at, message, output: report.output ?? null };
    case 'failed':
      return { type: 'failed', at, message, error: report.error ?? null };
  }
};

/** What a webhook's 2xx answer may say: the run's outcome, reported at once. */
export const AnswerOutcomeSchema = v.object({
  outcome: v.picklist(['succeeded', 'failed']),
  output: v.optional(v.unknown()),
  error: v.nullish(
    v.pipe(
      v.string(),
      v.check((text) => utf8Bytes(text) <= MAX_TEXT_BYTES),
    ),
  ),
});
