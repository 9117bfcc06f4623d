/** An organization's audit log, as its admins read it (see org-admin.ts). */
import type { PageRequest } from '../domain/repository.js';
import type { Deps } from '../runtime.js';
import { listAuditLog } from './audit-log.js';
import { readPage } from './paging.js';
import type { OrgAdmin } from './request-state.js';

export const listOrgAuditEvents = async (deps: Deps, admin: OrgAdmin, page: PageRequest) => {
  const { events, next } = await readPage(() => listAuditLog(deps, admin.orgName, page));
  return {
    events: events.map((event) => ({
      at: event.at,
      actor: event.actor,
      action: event.action,
      target: event.target,
      source_ip: event.sourceIp,
    })),
    next_cursor: next,
  };
};
