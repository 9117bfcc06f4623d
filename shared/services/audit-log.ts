import { type Actor, type AuditAction, type AuditEvent, type AuditPage, auditEvent } from '../domain/audit.js';
import type { PageRequest } from '../domain/repository.js';
import type { Deps } from '../runtime.js';

/**
 * Records a change after it was made: an event never claims a change that did not happen.
 * Should the write fail, the caller hears it (the change stands, and the admin can see so).
 */
export const recordAudit = async (
  deps: Deps,
  actor: Actor,
  orgName: string,
  action: AuditAction,
  target: AuditEvent['target'],
): Promise<void> => {
  await deps.repo.putAuditEvent(auditEvent(actor, orgName, action, target, deps.clock));
};

export const listAuditLog = (deps: Deps, orgName: string, page: PageRequest): Promise<AuditPage> =>
  deps.repo.listAuditEvents(orgName, page);
