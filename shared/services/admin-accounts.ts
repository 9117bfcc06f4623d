/**
 * Organization admins of the local identity provider: made by the operators' CLI (the first
 * admin of an organization has nobody else to make them).
 */
import { MIN_PASSWORD_LENGTH, newAdmin, newAdminPassword, normalizeEmail, orgNameProblem } from '../domain/admins.js';
import { type Actor, CLI_ACTOR } from '../domain/audit.js';
import type { Deps } from '../runtime.js';
import { AdminError } from './admin-service.js';
import { recordAudit } from './audit-log.js';

export interface NewAdminInput {
  orgName: string;
  email: string;
  /** Made (and shown once) when not given. */
  password?: string;
}

/** The admin made, with the password: the one the operator gave, or a new one shown this once. */
export const createAdmin = async (
  deps: Deps,
  input: NewAdminInput,
  actor: Actor = CLI_ACTOR,
): Promise<{ email: string; orgName: string; password: string }> => {
  const orgProblem = orgNameProblem(input.orgName);
  if (orgProblem) throw new AdminError(orgProblem);
  const email = normalizeEmail(input.email);
  if (!email) throw new AdminError(`Not an e-mail address: "${input.email}"`);
  const password = input.password ?? newAdminPassword();
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new AdminError(
      `Passwords are at least ${MIN_PASSWORD_LENGTH} characters (or leave --password out for a generated one)`,
    );
  }
  const admin = await newAdmin({ email, orgName: input.orgName, password }, deps.clock);
  if (!(await deps.repo.putNewAdmin(admin))) throw new AdminError(`An admin with e-mail ${email} exists already`);
  await recordAudit(deps, actor, admin.orgName, 'admin.create', { type: 'admin', id: email });
  return { email, orgName: admin.orgName, password };
};
