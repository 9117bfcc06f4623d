import type { Actor } from '../domain/audit.js';
import type { ApiClient } from '../domain/clients.js';
import type { RateState } from '../domain/rate-limit.js';
import type { ReportClaims } from '../domain/report-tokens.js';

/** What the middleware chain learns about one request, shared between middlewares and services. */
export interface RequestState {
  /** Set once the client is known, so every response to it carries the RateLimit-* headers. */
  rate?: RateState;
  /** The authenticated caller of a bearer-protected endpoint. */
  caller?: Caller;
  /** The organization admin calling an admin route, as their token proves. */
  admin?: OrgAdmin;
  /** The run a report token was checked for, and its organization. */
  report?: ReportClaims;
}

/** An organization admin: acts only in `orgName`; `actor` names them in the audit log. */
export interface OrgAdmin {
  orgName: string;
  actor: Actor;
}

/** The authenticated admin; only admin handlers call this, after the admin auth middleware. */
export const adminOf = (state: RequestState): OrgAdmin => {
  if (!state.admin) throw new Error('Handler reached without an authenticated admin');
  return state.admin;
};

export interface Caller {
  client: ApiClient;
  scopes: string[];
}

/** The authenticated caller; only bearer-protected handlers call this, after the auth middleware. */
export const callerOf = (state: RequestState): Caller => {
  if (!state.caller) throw new Error('Handler reached without an authenticated caller');
  return state.caller;
};

/** The checked report token; only report handlers call this, after the report auth step. */
export const reportOf = (state: RequestState): ReportClaims => {
  if (!state.report) throw new Error('Handler reached without a checked report token');
  return state.report;
};
