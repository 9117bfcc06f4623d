import * as v from 'valibot';
import {
  type CreateKnapInput,
  CreateKnapSchema,
  issueMessage,
  readKnapInput,
  sentMetadataProblem,
} from '../domain/knap-input.js';
import { type MeetingTranscription, MeetingTranscriptionSchema } from '../domain/runs.js';
import { type SchedulePreviewRequest, SchedulePreviewRequestSchema } from '../domain/schedule-preview.js';
import { badRequest } from '../errors.js';

export const parseCreateKnap = (body: unknown): CreateKnapInput => {
  const read = readKnapInput(body);
  if ('problem' in read) throw badRequest(read.problem);
  const refused = sentMetadataProblem(body);
  if (refused) throw badRequest(refused);
  return read.input;
};

/** PATCH body, for the OpenAPI document: any of the create fields; null removes one (JSON merge patch). */
export const KnapPatchSchema = v.partial(CreateKnapSchema);

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
