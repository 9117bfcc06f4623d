import * as v from 'valibot';
import {
  type CreateKnapInput,
  CreateKnapSchema,
  issueMessage,
  readKnapInput,
  sentMetadataProblem,
} from '../domain/knap-input.js';
import { activeByDefaultProblem, KNAP_BODY_FIELDS, unknownMemberProblem } from '../domain/knap-members.js';
import { SCHEDULE_TYPES } from '../domain/knaps.js';
import { isJsonObject } from '../domain/merge-patch.js';
import { jsonWithin, MAX_IO_BYTES, type RunReport, RunReportSchema } from '../domain/run-events.js';
import { type MeetingTranscription, MeetingTranscriptionSchema } from '../domain/runs.js';
import { type SchedulePreviewRequest, SchedulePreviewRequestSchema } from '../domain/schedule-preview.js';
import { MAX_DEPTH, parseJson, toJson } from '../domain/storable-json.js';
import { ApiError, badRequest } from '../errors.js';
import { bodyText, mediaTypeOf, requireUtf8Charset } from '../http/body-text.js';
import type { HttpEvent } from '../http/types.js';

export const parseCreateKnap = (body: unknown): CreateKnapInput => {
  // A misspelt field (`shedule_type`) would otherwise be dropped and its default used.
  const unknown = isJsonObject(body) ? unknownMemberProblem(body, KNAP_BODY_FIELDS) : null;
  if (unknown) throw badRequest(unknown);
  const read = readKnapInput(body);
  if ('problem' in read) throw badRequest(read.problem);
  const refused = sentMetadataProblem(body);
  if (refused) throw badRequest(refused);
  // A private Knap keeps the default (true); it means something only to a shared one.
  const defaultActive = activeByDefaultProblem(read.input.visibility, read.input.active_by_default, true);
  if (defaultActive) throw badRequest(defaultActive);
  return read.input;
};

/**
 * PATCH and PUT body, for the OpenAPI document: any of the create fields, none with a default
 * (a missing member keeps its value); null resets a member to its create default (JSON merge
 * patch), except `name`, which a Knap always has.
 */
export const KnapPatchSchema = v.object({
  name: v.optional(CreateKnapSchema.entries.name),
  schedule_type: v.optional(v.nullable(v.picklist(SCHEDULE_TYPES))),
  is_active: v.optional(v.nullable(v.boolean())),
  visibility: v.optional(v.nullable(v.pipe(v.string(), v.description('Fixed at creation: only the same value is accepted')))),
  active_by_default: v.optional(v.nullable(v.boolean())),
  tool_metadata: v.optional(
    v.nullable(
      v.pipe(
        v.record(v.string(), v.unknown()),
        v.description('Merges member by member; a null member is removed. schedule_description and timezone are strings'),
      ),
    ),
  ),
});

/** DELETE /api/studio/knap-tools/{uuid} and /api/admin/knaps/{uuid}: Knapsack's answer. */
export const KnapDeletedSchema = v.object({ message: v.literal('Knap deleted successfully') });

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

/** GET /api/studio/knap-tools query parameters. */
export const ListKnapsQuerySchema = v.object({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`),
      v.transform(Number),
      v.minValue(1, `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`),
      v.maxValue(MAX_PAGE_SIZE, `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`),
    ),
    String(DEFAULT_PAGE_SIZE),
  ),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(4096, 'cursor is not valid'))),
});

export type ListKnapsQuery = v.InferOutput<typeof ListKnapsQuerySchema>;

export const parseListKnapsQuery = (query: Record<string, string | undefined> | undefined): ListKnapsQuery => {
  const parsed = v.safeParse(ListKnapsQuerySchema, query ?? {});
  if (!parsed.success) throw badRequest(parsed.issues[0].message);
  return parsed.output;
};

export const parseSchedulePreview = (body: unknown): SchedulePreviewRequest => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  const parsed = v.safeParse(SchedulePreviewRequestSchema, body);
  if (!parsed.success) throw badRequest(issueMessage(parsed.issues[0]));
  return parsed.output;
};

export const parseMeetingTranscription = (body: unknown): MeetingTranscription => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  const parsed = v.safeParse(MeetingTranscriptionSchema, body);
  if (!parsed.success) throw badRequest(issueMessage(parsed.issues[0]));
  return parsed.output;
};

/** POST /api/studio/knap-tools/{uuid}/runs body (optional): what the run starts with. */
export const StartRunSchema = v.object({
  input: v.optional(
    v.nullable(
      v.pipe(
        v.record(v.string(), v.unknown(), 'input must be a JSON object'),
        v.check(
          (input) => jsonWithin(input, MAX_IO_BYTES, toJson),
          `input must be at most ${MAX_IO_BYTES} bytes of JSON, nested at most ${MAX_DEPTH} levels`,
        ),
      ),
    ),
  ),
});
export type StartRunRequest = v.InferOutput<typeof StartRunSchema>;

/** The start body as sent: none at all (the contract's earlier "no body") is no input. */
export const parseStartRun = (event: HttpEvent): StartRunRequest => {
  const text = bodyText(event);
  if (text === undefined || text.trim() === '') return {};
  const mediaType = mediaTypeOf(event.headers?.['content-type']);
  if (mediaType && !/^application\/([\w.-]+\+)?json$/.test(mediaType.type))
    throw new ApiError(415, 'Content-Type must be application/json');
  requireUtf8Charset(mediaType);
  let body: unknown;
  try {
    body = parseJson(text);
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  // A record schema would take an array for an object (and copy it into one): refused first.
  if (Array.isArray((body as { input?: unknown }).input)) throw badRequest('input must be a JSON object');
  const parsed = v.safeParse(StartRunSchema, body);
  if (!parsed.success) throw badRequest(issueMessage(parsed.issues[0]));
  return parsed.output;
};

/** POST /api/studio/runs/{run_id}/events body. */
export const parseRunReport = (body: unknown): RunReport => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  const parsed = v.safeParse(RunReportSchema, body);
  if (!parsed.success) throw badRequest(issueMessage(parsed.issues[0]));
  return parsed.output;
};
