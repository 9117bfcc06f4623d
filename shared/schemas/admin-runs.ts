/**
 * GET /api/admin/runs query parameters: a page (as every listing) and the filters, validated
 * at the edge. A module of its own: only the runs listing's bundle carries it.
 */
import * as v from 'valibot';
import { RUN_OUTCOMES } from '../domain/run-events.js';
import { type OrgRunFilter, RUN_STATUSES } from '../domain/runs.js';
import { badRequest } from '../errors.js';
import { ListKnapsQuerySchema } from './knap-request.js';

const statusMessage = `status must be one of ${RUN_STATUSES.join(', ')}`;
const outcomeMessage = `outcome must be one of ${RUN_OUTCOMES.join(', ')}`;

export const AdminRunsQuerySchema = v.object({
  ...ListKnapsQuerySchema.entries,
  knap_uuid: v.optional(
    v.pipe(v.string('knap_uuid must be a UUID'), v.uuid('knap_uuid must be a UUID'), v.description("Only this Knap's runs")),
  ),
  status: v.optional(v.pipe(v.picklist(RUN_STATUSES, statusMessage), v.description('Only runs with this delivery status'))),
  outcome: v.optional(
    v.pipe(v.picklist(RUN_OUTCOMES, outcomeMessage), v.description('Only runs whose executor reported this outcome')),
  ),
});

export interface AdminRunsQuery {
  limit: number;
  cursor?: string;
  filter: OrgRunFilter;
}

export const parseAdminRunsQuery = (query: Record<string, string | undefined> | undefined): AdminRunsQuery => {
  const parsed = v.safeParse(AdminRunsQuerySchema, query ?? {});
  if (!parsed.success) throw badRequest(parsed.issues[0].message);
  const { limit, cursor, knap_uuid, status, outcome } = parsed.output;
  return {
    limit,
    ...(cursor === undefined ? {} : { cursor }),
    filter: {
      ...(knap_uuid === undefined ? {} : { knapUuid: knap_uuid.toLowerCase() }),
      ...(status === undefined ? {} : { status }),
      ...(outcome === undefined ? {} : { outcome }),
    },
  };
};
