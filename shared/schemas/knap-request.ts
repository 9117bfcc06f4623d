import * as v from 'valibot';
import { SCHEDULE_TYPES } from '../domain/knaps.js';
import { badRequest } from '../errors.js';
import { MAX_DESCRIPTION_LENGTH } from '../schedules/types.js';
import { storableJsonProblem } from './storable-json.js';

export const MAX_NAME_LENGTH = 255;

/** Characters as users count them (code points), not UTF-16 units. */
const characters = (value: string): number => [...value].length;

const text = (field: string, max: number) =>
  v.pipe(
    v.string(`${field} must be a string`),
    v.description(`At most ${max} characters`),
    v.check((value) => characters(value) <= max, `${field} must be at most ${max} characters`),
  );

const flag = (field: string, fallback: boolean) => v.optional(v.boolean(`${field} must be true or false`), fallback);

/** null reads as absent: JSON clients often send a field they have no value for as null. */
export const ToolMetadataSchema = v.looseObject({
  action_description: v.nullish(text('tool_metadata.action_description', 10_000)),
  schedule_description: v.nullish(text('tool_metadata.schedule_description', MAX_DESCRIPTION_LENGTH)),
  timezone: v.nullish(text('tool_metadata.timezone', 64)),
});

/** POST /api/studio/knap-tools body. Fields the API generates (uuid, timestamps, ...) are ignored if sent. */
export const CreateKnapSchema = v.object({
  name: v.pipe(
    v.string('name is required and must be a string'),
    v.description(`1 to ${MAX_NAME_LENGTH} characters, not blank`),
    v.check((value) => value.trim().length > 0, 'name must not be empty'),
    v.check((value) => characters(value) <= MAX_NAME_LENGTH, `name must be 1 to ${MAX_NAME_LENGTH} characters`),
  ),
  schedule_type: v.optional(v.picklist(SCHEDULE_TYPES, `schedule_type must be one of: ${SCHEDULE_TYPES.join(', ')}`), 'manual'),
  is_active: flag('is_active', true),
  visibility: v.optional(text('visibility', MAX_NAME_LENGTH), 'private'),
  active_by_default: flag('active_by_default', true),
  tool_metadata: v.optional(
    v.pipe(
      // valibot's object schemas take arrays for objects; JSON arrays are not metadata.
      v.custom<Record<string, unknown>>(
        (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
        'tool_metadata must be an object',
      ),
      ToolMetadataSchema,
      v.rawCheck(({ dataset, addIssue }) => {
        const problem = dataset.typed ? storableJsonProblem(dataset.value, 'tool_metadata') : null;
        if (problem) addIssue({ message: problem });
      }),
    ),
    {},
  ),
});

/** valibot reports a missing key as a generic object issue; name the field instead. */
const issueMessage = (issue: v.BaseIssue<unknown>): string => {
  const field = v.getDotPath(issue);
  return issue.kind === 'schema' && issue.type === 'object' && issue.input === undefined && field
    ? `${field} is required`
    : issue.message;
};

export type CreateKnapInput = v.InferOutput<typeof CreateKnapSchema>;

export const parseCreateKnap = (body: unknown): CreateKnapInput => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('Request body must be a JSON object');
  }
  const parsed = v.safeParse(CreateKnapSchema, body);
  if (!parsed.success) throw badRequest(issueMessage(parsed.issues[0]));
  return parsed.output;
};

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
