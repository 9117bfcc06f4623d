/**
 * What a client may send to create a Knap: the rules of a valid Knap, shared by create and
 * (as a merge of the stored Knap with the patch) by change.
 */
import * as v from 'valibot';
import { MAX_DESCRIPTION_LENGTH } from '../schedules/types.js';
import { SCHEDULE_TYPES } from './knaps.js';
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

export type CreateKnapInput = v.InferOutput<typeof CreateKnapSchema>;

/** valibot reports a missing key as a generic object issue; name the field instead. */
export const issueMessage = (issue: v.BaseIssue<unknown>): string => {
  const field = v.getDotPath(issue);
  return issue.kind === 'schema' && issue.type === 'object' && issue.input === undefined && field
    ? `${field} is required`
    : issue.message;
};

/** A create body (or a merged PATCH) as a valid input, or the first problem as a sentence. */
export const readKnapInput = (body: unknown): { input: CreateKnapInput } | { problem: string } => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { problem: 'Request body must be a JSON object' };
  const parsed = v.safeParse(CreateKnapSchema, body);
  return parsed.success ? { input: parsed.output } : { problem: issueMessage(parsed.issues[0]) };
};
