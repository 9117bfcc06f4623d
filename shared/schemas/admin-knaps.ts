/** The admin API's Knaps: what an admin sees of each Knap of the organization, and may change. */
import * as v from 'valibot';
import { CreateKnapSchema } from '../domain/knap-input.js';
import { KnapSchema } from '../domain/knaps.js';
import { RUN_OUTCOMES } from '../domain/run-events.js';
import { RUN_STATUSES } from '../domain/runs.js';

const timestamp = v.pipe(v.string(), v.isoTimestamp(), v.description('ISO 8601, UTC'));

/** The Knap's newest run, in brief: enough for a listing's "last run" column. */
export const LastRunSchema = v.object({
  run_id: v.string(),
  created_at: timestamp,
  status: v.picklist(RUN_STATUSES),
  outcome: v.nullable(v.picklist(RUN_OUTCOMES)),
});
export type LastRun = v.InferOutput<typeof LastRunSchema>;

export const AdminKnapSchema = v.object({
  ...KnapSchema.entries,
  schedule_summary: v.pipe(
    v.nullable(v.string()),
    v.description("The schedule said back in English (the preview's description); null for manual and after-meeting Knaps"),
  ),
  last_run: v.pipe(v.nullable(LastRunSchema), v.description('The newest run, or null before the first')),
});
export type AdminKnap = v.InferOutput<typeof AdminKnapSchema>;

export const AdminKnapPageSchema = v.object({
  knaps: v.array(AdminKnapSchema),
  next_cursor: v.pipe(v.nullable(v.string()), v.description('Pass as `cursor` for the next page; null at the end')),
});

/** The fields an admin changes: a missing one keeps its value (a JSON merge patch). */
export const ADMIN_KNAP_FIELDS = ['name', 'is_active', 'active_by_default', 'tool_metadata'] as const;

/** PATCH /api/admin/knaps/{uuid}, for the OpenAPI document; the body is read as a merge patch (org-knaps.ts). */
export const AdminKnapPatchSchema = v.object({
  name: v.optional(CreateKnapSchema.entries.name),
  is_active: v.optional(v.boolean()),
  active_by_default: v.optional(v.boolean()),
  tool_metadata: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
});
