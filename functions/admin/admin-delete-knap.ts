import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import { MAX_IGNORED_BODY_BYTES } from '../../shared/http/body-limit.js';
import { json } from '../../shared/http/responses.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { KNAP_DELETED } from '../../shared/services/knap-lifecycle.js';
import { deleteOrgKnap } from '../../shared/services/org-knaps.js';
import { adminOf } from '../../shared/services/request-state.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import { KnapStore } from '../../shared/store/knap-store.js';
import { QuotaStore } from '../../shared/store/quota-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';

/** DELETE /api/admin/knaps/{uuid}: Knapsack's answer, as the creator's DELETE; audited. */
export const createHandler = (functionDeps: Deps) =>
  apiHandler(
    functionDeps,
    { body: 'none', auth: 'admin', maxBodyBytes: MAX_IGNORED_BODY_BYTES, noStore: true },
    async ({ deps, event, state }) => {
      await deleteOrgKnap(deps, adminOf(state), event.pathParameters?.uuid ?? '', event.headers?.['if-match']);
      return json(200, { message: KNAP_DELETED });
    },
  );

/** The stores this function's route uses (its table access: lib/functions.ts). */
export const stores: StoreClasses = { knaps: KnapStore, admins: AdminStore, quotas: QuotaStore };
export const handler = createHandler(defaultDeps({ stores, adminTokens: adminTokensFromEnv }));
