import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { etagOf } from '../../shared/domain/knaps.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_JSON_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json } from '../../shared/http/responses.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { updateOrgKnap } from '../../shared/services/org-knaps.js';
import { adminOf } from '../../shared/services/request-state.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import { KnapStore } from '../../shared/store/knap-store.js';
import { RunStore } from '../../shared/store/run-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** PATCH /api/admin/knaps/{uuid}: name, is_active, active_by_default, tool_metadata (a JSON merge patch); audited. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'json', auth: 'admin', maxBodyBytes: MAX_JSON_BODY_BYTES, noStore: true },
    async ({ deps, event, body, state }) => {
      const uuid = event.pathParameters?.uuid ?? '';
      const { knap, version } = await updateOrgKnap(deps, adminOf(state), uuid, body, event.headers?.['if-match']);
      return json(200, knap, { ETag: etagOf(version) });
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts). */
export const stores: StoreClasses = { knaps: KnapStore, runs: RunStore, admins: AdminStore };
export const handler = createHandler(defaultDeps({ stores, adminTokens: adminTokensFromEnv }));
