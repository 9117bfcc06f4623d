/**
 * The audit log: every change to an organization's API clients and webhook endpoints, by an
 * admin or by the operators' CLI, admins' sign-ins, and runs they sent again. Events name what changed, never a
 * secret or a hash.
 */
import { randomBytes } from 'node:crypto';
import { type Clock, isoSeconds } from './clock.js';

export const AUDIT_ACTIONS = [
  'client.create',
  'client.update',
  'client.regenerate_secret',
  'client.revoke',
  'client.add_secret',
  'client.remove_secret',
  'client.set_jwks',
  'webhook.create',
  'webhook.delete',
  'webhook.rotate_secret',
  'webhook.test',
  'webhook.update',
  'webhook.auto_disable',
  'webhook.recover',
  'run.redeliver',
  'knap.update',
  'knap.delete',
  'admin.create',
  'admin.sign_in',
  'admin.sign_in_failed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditTargetType = 'client' | 'webhook' | 'admin' | 'run' | 'knap';

/** Kept at least a year (the contract); the table's TTL removes an event after this. */
export const AUDIT_RETENTION_SECONDS = 400 * 24 * 3600;

/** Who made a change: an admin (email, or the provider's username), or the CLI. */
export interface Actor {
  name: string;
  sourceIp: string | null;
}

export const CLI_ACTOR: Actor = { name: 'cli', sourceIp: null };

/** The service itself: an endpoint disabled automatically by the deliverer. */
export const SYSTEM_ACTOR: Actor = { name: 'system', sourceIp: null };

export interface AuditEvent {
  eventId: string;
  orgName: string;
  at: string;
  actor: string;
  action: AuditAction;
  target: { type: AuditTargetType; id: string };
  sourceIp: string | null;
}

let sequence = 0;

/**
 * Event ids sort as the events happened: the millisecond, then a count within this process
 * (events in one millisecond), then random bytes so two processes never make the same id.
 */
const newEventId = (at: Date): string => {
  sequence = (sequence + 1) % 36 ** 4;
  return `${at.getTime().toString(36).padStart(9, '0')}${sequence.toString(36).padStart(4, '0')}${randomBytes(3).toString('hex')}`;
};

export const auditEvent = (
  actor: Actor,
  orgName: string,
  action: AuditAction,
  target: AuditEvent['target'],
  clock: Clock,
): AuditEvent => {
  const now = clock.now();
  return {
    eventId: newEventId(now),
    orgName,
    at: isoSeconds(now),
    actor: actor.name,
    action,
    target,
    sourceIp: actor.sourceIp,
  };
};

export interface AuditPage {
  events: AuditEvent[];
  next: string | null;
}
