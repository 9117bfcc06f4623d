/**
 * What a client may send to create a Knap: the rules of a valid Knap, shared by create and
 * (as a merge of the stored Knap with the patch) by change.
 */
import * as v from 'valibot';
import { MAX_DESCRIPTION_LENGTH } from '../schedules/types.js';
import { SCHEDULE_TYPES } from './knaps.js';
import { setOwnMember } from './own-member.js';
import { MAX_DEPTH, storableJsonProblem } from './storable-json.js';

export const MAX_NAME_LENGTH = 255;

/**
 * At most `max` characters as users count them (code points), not UTF-16 units. A string has
 * no more code points than units, so only a long one is counted.
 */
const fitsCharacters = (value: string, max: number): boolean => value.length <= max || [...value].length <= max;

const text = (field: string, max: number) =>
  v.pipe(
    v.string(`${field} must be a string`),
    v.description(`At most ${max} characters`),
    v.check((value) => fitsCharacters(value, max), `${field} must be at most ${max} characters`),
  );

const flag = (field: string, fallback: boolean) => v.optional(v.boolean(`${field} must be true or false`), fallback);

/** null reads as absent: JSON clients often send a field they have no value for as null. */
export const ToolMetadataSchema = v.pipe(
  v.looseObject({
    action_description: v.nullish(text('tool_metadata.action_description', 10_000)),
    schedule_description: v.nullish(text('tool_metadata.schedule_description', MAX_DESCRIPTION_LENGTH)),
    timezone: v.nullish(text('tool_metadata.timezone', 64)),
  }),
  v.description(
    "Free-form JSON object: these members are read, any other is kept as sent (constructor and prototype too). A member named __proto__, at any depth, is refused with a 400: JavaScript reads it as an object's prototype, not as data",
  ),
);

/**
 * The one member name tool_metadata refuses. In JavaScript, `object['__proto__'] = value` sets
 * the object's prototype instead of a member: a JSON merge patch of one moved other members
 * (a `schedule_description` inside it rescheduled the Knap), and valibot drops it on create.
 * Refused rather than kept so that no JavaScript consumer of the Knap (webhook receivers
 * included) meets one either.
 */
export const RESERVED_MEMBER = '__proto__';

/**
 * Where the first `__proto__` member is, as the names that lead to it (innermost first), or
 * null. The path is built only when one is found: most bodies have none.
 */
const reservedMemberAt = (value: unknown, depth: number): string[] | null => {
  // Deeper than storable JSON may go: refused for its depth anyway, once merged.
  if (depth > MAX_DEPTH + 1 || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = reservedMemberAt(value[index], depth + 1);
      if (found) {
        found.push(String(index));
        return found;
      }
    }
    return null;
  }
  for (const name in value) {
    if (!Object.hasOwn(value, name)) continue;
    if (name === RESERVED_MEMBER) return [name];
    const found = reservedMemberAt((value as Record<string, unknown>)[name], depth + 1);
    if (found) {
      found.push(name);
      return found;
    }
  }
  return null;
};

/**
 * The problem with tool_metadata as a client sent it (a create body, a PATCH), before anything
 * is merged: a member named `__proto__` at any depth. Only what is sent is checked, so a Knap
 * stored earlier with one deep inside can still be changed.
 */
export const sentMetadataProblem = (body: unknown): string | null => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const at = reservedMemberAt((body as Record<string, unknown>).tool_metadata, 0);
  return at
    ? `tool_metadata must not have a member named "${RESERVED_MEMBER}" (at ${['tool_metadata', ...at.reverse()].join('.')})`
    : null;
};

/**
 * valibot's loose objects copy the members they do not know except `__proto__`, `constructor`
 * and `prototype`: tool_metadata as sent, every own member in its order, with the values
 * valibot read for the members it knows.
 */
const everyMember = (sent: unknown, read: Record<string, unknown>): Record<string, unknown> => {
  if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) return read;
  const members: Record<string, unknown> = {};
  for (const name in sent) {
    if (!Object.hasOwn(sent, name)) continue;
    // A `__proto__` stays a member, never a prototype.
    setOwnMember(members, name, Object.hasOwn(read, name) ? read[name] : (sent as Record<string, unknown>)[name]);
  }
  return members;
};

/** POST /api/studio/knap-tools body. Fields the API generates (uuid, timestamps, ...) are ignored if sent. */
export const CreateKnapSchema = v.object({
  name: v.pipe(
    v.string('name is required and must be a string'),
    v.description(`1 to ${MAX_NAME_LENGTH} characters, not blank`),
    v.check((value) => value.trim().length > 0, 'name must not be empty'),
    v.check((value) => fitsCharacters(value, MAX_NAME_LENGTH), `name must be 1 to ${MAX_NAME_LENGTH} characters`),
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
  return issue.kind === 'schema' &&
    (issue.type === 'object' || issue.type === 'strict_object') &&
    issue.input === undefined &&
    field
    ? `${field} is required`
    : issue.message;
};

/** A create body (or a merged PATCH) as a valid input, or the first problem as a sentence. */
export const readKnapInput = (body: unknown): { input: CreateKnapInput } | { problem: string } => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { problem: 'Request body must be a JSON object' };
  const parsed = v.safeParse(CreateKnapSchema, body);
  if (!parsed.success) return { problem: issueMessage(parsed.issues[0]) };
  const tool_metadata = everyMember((body as Record<string, unknown>).tool_metadata, parsed.output.tool_metadata);
  const input = Object.assign({}, parsed.output);
  input.tool_metadata = tool_metadata;
  return { input };
};
