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

/**
 * Makes something new (a client, a webhook endpoint) with its audit event, so that nothing
 * exists without its event even if the process dies between the two writes (`kill -9`, a
 * Lambda timeout): the event is written first, then `create`. dynalite has no transactions,
 * and this costs no more round trips than event-after-change did. The price of a crash between
 * the two: an event of a creation that did not complete (the caller got no answer and no
 * secret; the id is listed nowhere else). Both writes are safe to send again (the event is a
 * plain Put of the same item; `create` recognizes its own write token).
 */
export const auditedCreate = async <T>(
  deps: Deps,
  actor: Actor,
  orgName: string,
  action: AuditAction,
  target: AuditEvent['target'],
  create: () => Promise<T>,
): Promise<T> => {
  await recordAudit(deps, actor, orgName, action, target);
  return create();
};

export const listAuditLog = (deps: Deps, orgName: string, page: PageRequest): Promise<AuditPage> =>
  deps.repo.listAuditEvents(orgName, page);
