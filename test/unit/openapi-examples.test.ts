/**
 * Every example of the OpenAPI document is valid (issue 24): walked out of the document as
 * served, each is parsed by the valibot schema its component schema was made from, the schema
 * the API itself validates and answers with, and may carry no member that schema does not know.
 * (`npm run lint:openapi` checks the same examples against the JSON Schema forms too:
 * redocly's no-invalid-media-type-examples.) The schedule examples are what the parser says.
 */
import * as v from 'valibot';
import type { Clock } from '../../shared/domain/clock.js';
import { componentSchemas, openApiDocument } from '../../shared/openapi/document.js';
import {
  createKnapExamples,
  PREVIEW_ASKED_AT,
  SCHEDULED_KNAP,
  schedulePreviewRequestExamples,
} from '../../shared/openapi/examples.js';
import type { Deps } from '../../shared/runtime.js';
import * as Schedules from '../../shared/schedules/index.js';
import { describeSchedule } from '../../shared/schedules/index.js';
import { previewSchedule } from '../../shared/services/schedule-preview.js';

type Json = Record<string, unknown>;
interface FoundExample {
  /** Where in the document, as a JSON pointer-ish path. */
  at: string;
  schema: Json;
  value: unknown;
}

/** A key as a JSON Pointer token. */
const token = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every `example` and every value of `examples` beside a `schema` (media types, parameters, headers), by JSON Pointer. */
const examplesIn = (node: unknown, at = ''): FoundExample[] => {
  if (Array.isArray(node)) return node.flatMap((item, index) => examplesIn(item, `${at}/${index}`));
  if (!isObject(node)) return [];
  const here: FoundExample[] = [];
  if (isObject(node.schema)) {
    const schema = node.schema;
    if ('example' in node) here.push({ at: `${at}/example`, schema, value: node.example });
    if (isObject(node.examples)) {
      for (const [name, example] of Object.entries(node.examples)) {
        here.push({ at: `${at}/examples/${token(name)}`, schema, value: (example as Json).value });
      }
    }
  }
  const below = Object.entries(node)
    .filter(([key]) => key !== 'examples' && key !== 'example')
    .flatMap(([key, child]) => examplesIn(child, `${at}/${token(key)}`));
  return [...here, ...below];
};

/** Members of `sent` that the parsed output dropped: unknown to the schema (valibot's objects strip them). */
const unknownMembers = (sent: unknown, parsed: unknown, at = ''): string[] => {
  if (Array.isArray(sent) && Array.isArray(parsed))
    return sent.flatMap((item, i) => unknownMembers(item, parsed[i], `${at}/${i}`));
  if (!isObject(sent) || !isObject(parsed)) return [];
  return Object.entries(sent).flatMap(([key, child]) =>
    Object.hasOwn(parsed, key) ? unknownMembers(child, parsed[key], `${at}/${key}`) : [`${at}/${key}`],
  );
};

/** The problems of one example: none when its schema's valibot source takes it as it is. */
const problemsOf = ({ schema, value }: FoundExample): string[] => {
  const reference = typeof schema.$ref === 'string' ? /^#\/components\/schemas\/(\w+)$/.exec(schema.$ref)?.[1] : undefined;
  if (reference) {
    const source = componentSchemas[reference as keyof typeof componentSchemas] as v.GenericSchema | undefined;
    if (!source) return [`no valibot schema named ${reference}`];
    const parsed = v.safeParse(source, value);
    if (!parsed.success) return parsed.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
    return unknownMembers(value, parsed.output).map((member) => `${member}: not a member of ${reference}`);
  }
  // Inline schemas with examples are plain strings (the webhook's headers); anything else needs a validator here.
  if (schema.type === 'string' && Object.keys(schema).length === 1) return typeof value === 'string' ? [] : ['not a string'];
  return [`no validator for the inline schema ${JSON.stringify(schema)}`];
};

const document = openApiDocument();
const found = examplesIn(document);
type Operation = {
  requestBody?: { content: Record<string, Json> };
  responses: Record<string, { content?: Record<string, Json> }>;
};
const operations: [string, Operation][] = [
  ...Object.entries(document.paths as Record<string, Record<string, Operation>>),
  ...Object.entries(document.webhooks as Record<string, Record<string, Operation>>),
].flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]): [string, Operation] => [`${method} ${path}`, operation]),
);

test('the document has an example for every request body and every 2xx JSON response of a schema', () => {
  const missing: string[] = [];
  for (const [name, operation] of operations) {
    for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
      if (!isObject(media.examples) && !('example' in media)) missing.push(`${name} request ${type}`);
    }
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!/^2/.test(status)) continue;
      for (const [type, media] of Object.entries(response.content ?? {})) {
        const documented = isObject(media.schema) && typeof media.schema.$ref === 'string';
        if (documented && !isObject(media.examples) && !('example' in media)) missing.push(`${name} ${status} ${type}`);
      }
    }
  }
  expect(missing).toEqual([]);
  expect(found.length).toBeGreaterThanOrEqual(45);
});

test('every example of the document is valid by the valibot schema its schema came from', () => {
  const invalid = found.flatMap((example) => problemsOf(example).map((problem) => `${example.at}: ${problem}`));
  expect(invalid).toEqual([]);
});

test('the check refuses what it should: a wrong type, a missing field, an unknown member', () => {
  const knap = found.find(({ at }) => at.startsWith('/paths/~1api~1studio~1knap-tools/post/responses/201'));
  const at = (value: unknown): FoundExample => ({ at: '', schema: { $ref: '#/components/schemas/Knap' }, value });
  expect(knap && problemsOf(knap)).toEqual([]);
  expect(problemsOf(at({ ...SCHEDULED_KNAP, is_active: 'yes' }))).not.toEqual([]);
  const { uuid: _uuid, ...withoutUuid } = SCHEDULED_KNAP;
  expect(problemsOf(at(withoutUuid))).not.toEqual([]);
  expect(problemsOf(at({ ...SCHEDULED_KNAP, schedule_info: { ...SCHEDULED_KNAP.schedule_info, hour: 9 } }))).toEqual([
    '/schedule_info/hour: not a member of Knap',
  ]);
  expect(problemsOf({ at: '', schema: { type: 'object' }, value: {} })).toEqual([
    'no validator for the inline schema {"type":"object"}',
  ]);
});

test('every time of day in an example is one (no "schedule_time": "40:52")', () => {
  const times = JSON.stringify(found.map(({ value }) => value)).match(/"(schedule_time|end_time)":"[^"]*"/g) ?? [];
  expect(times.length).toBeGreaterThan(0);
  for (const time of times) expect(time).toMatch(/:"([01]\d|2[0-3]):[0-5]\d"$/);
});

test('the schedule examples are what the parser answers', () => {
  const clock: Clock = { now: () => new Date(PREVIEW_ASKED_AT) };
  // Each request example and the response example of the same name (issue 46 added "several_times").
  expect(Object.keys(schedulePreviewRequestExamples).length).toBeGreaterThanOrEqual(2);
  for (const [name, example] of Object.entries(schedulePreviewRequestExamples)) {
    const preview = found.find(
      ({ at }) =>
        at.startsWith('/paths/~1api~1studio~1schedules~1preview/post/responses/200') && at.endsWith(`/examples/${name}`),
    );
    expect(preview).toBeDefined();
    const asked = v.parse(componentSchemas.SchedulePreviewRequest, example?.value);
    expect(preview?.value).toEqual(previewSchedule(Schedules, { clock } as Deps, asked));
  }

  const metadata = SCHEDULED_KNAP.tool_metadata as { schedule_description: string; timezone: string };
  const described = describeSchedule(metadata.schedule_description, {
    timezone: metadata.timezone,
    now: new Date(SCHEDULED_KNAP.creation_timestamp),
  });
  expect({ schedule_info: SCHEDULED_KNAP.schedule_info, next_run_at: SCHEDULED_KNAP.next_run_at }).toEqual(described);
  // The Knap the create example makes, as POST answers it.
  expect(createKnapExamples.scheduled?.value.tool_metadata).toEqual(SCHEDULED_KNAP.tool_metadata);
});
