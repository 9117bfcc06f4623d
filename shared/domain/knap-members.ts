/**
 * The top-level members of a Knap body (create, PUT, PATCH) and what each may do: a member
 * the API does not know is refused, naming the known field it most resembles (a misspelt
 * `shedule_type` once made a manual Knap that never ran); the members the API writes itself
 * may be sent back as they were answered (Knapsack's clients PUT a whole Knap) but not changed.
 */
import { isShared, KNAP_INPUT_FIELDS, type Knap, type StoredKnap } from './knaps.js';

/** What the API sets: sent back unchanged they are ignored; changed, refused. */
export const READ_ONLY_FIELDS = [
  'uuid',
  'creation_user_id',
  'creation_timestamp',
  'updated_at',
  'schedule_info',
  'next_run_at',
  'can_toggle_default_active',
] as const;

/** Every top-level member a create, PUT or PATCH body may have. */
export const KNAP_BODY_FIELDS: readonly string[] = [...KNAP_INPUT_FIELDS, ...READ_ONLY_FIELDS];

/**
 * The optimal string alignment distance (Levenshtein plus swapping two neighbours), with
 * letters compared case-blind: how many edits turn one name into the other.
 */
export const editDistance = (first: string, second: string): number => {
  const a = first.toLowerCase();
  const b = second.toLowerCase();
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i += 1) rows.push([i]);
  for (let j = 1; j <= b.length; j += 1) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    const row = rows[i] as number[];
    const above = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
};

/**
 * The known field a name most resembles, or null when none is close: at most 2 edits, and
 * fewer than a third of the name's letters (so that `id` does not resemble `uuid`).
 */
export const nearestField = (name: string, fields: readonly string[]): string | null => {
  // Names are short (at most 25 characters here); a long one resembles nothing.
  if (name.length > 64) return null;
  let nearest: string | null = null;
  let distance = Number.POSITIVE_INFINITY;
  for (const field of fields) {
    const edits = editDistance(name, field);
    if (edits < distance) {
      nearest = field;
      distance = edits;
    }
  }
  return nearest !== null && distance <= 2 && distance * 3 < Math.max(name.length, 3) ? nearest : null;
};

/** How a member name is quoted in a detail: JSON's spelling, shortened when long. */
const quoted = (name: string): string => JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}...` : name);

/** The first top-level member of `body` not among `fields`, as a 400's detail, or null. */
export const unknownMemberProblem = (body: Record<string, unknown>, fields: readonly string[]): string | null => {
  for (const name in body) {
    if (!Object.hasOwn(body, name) || fields.includes(name)) continue;
    const nearest = nearestField(name, fields);
    return nearest
      ? `Unknown field ${quoted(name)}: did you mean "${nearest}"?`
      : `Unknown field ${quoted(name)}; the fields are: ${fields.join(', ')}`;
  }
  return null;
};

/** Two JSON values alike, object members in any order. */
export const sameJsonValue = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameJsonValue(item, b[index]))
    );
  }
  const aKeys = Object.keys(a).filter((name) => (a as Record<string, unknown>)[name] !== undefined);
  const bKeys = Object.keys(b).filter((name) => (b as Record<string, unknown>)[name] !== undefined);
  return (
    aKeys.length === bKeys.length &&
    aKeys.every(
      (name) =>
        Object.hasOwn(b, name) && sameJsonValue((a as Record<string, unknown>)[name], (b as Record<string, unknown>)[name]),
    )
  );
};

/** The same instant: a timestamp sent back with or without its milliseconds is unchanged. */
const sameInstant = (sent: unknown, answered: unknown): boolean => {
  if (sent === answered) return true;
  if (typeof sent !== 'string' || typeof answered !== 'string') return false;
  const at = Date.parse(sent);
  return !Number.isNaN(at) && at === Date.parse(answered) && /(Z|[+-]00:?00)$/i.test(sent);
};

/**
 * The first read-only member of a PUT or PATCH body that differs from the Knap as this caller
 * was answered it, as a 400's detail, or null when every one is as it was (then it is ignored).
 */
export const readOnlyProblem = (body: Record<string, unknown>, answered: Knap): string | null => {
  for (const field of READ_ONLY_FIELDS) {
    if (!Object.hasOwn(body, field)) continue;
    const sent = body[field];
    const now = answered[field];
    const same =
      field === 'uuid'
        ? typeof sent === 'string' && sent.toLowerCase() === String(now).toLowerCase()
        : field === 'creation_timestamp' || field === 'updated_at' || field === 'next_run_at'
          ? sameInstant(sent, now)
          : sameJsonValue(sent, now);
    if (!same) return `${field} is read-only: the API sets it. Send it unchanged or leave it out`;
  }
  return null;
};

/** Fixed at creation (Knapsack's rule): a different visibility is refused, the same one accepted. */
export const visibilityProblem = (sent: string, stored: string): string | null =>
  sent === stored ? null : `visibility cannot be changed after creation: this Knap's is '${stored}'`;

/**
 * `active_by_default` is the default state of a shared Knap for its organization's users: a
 * private Knap keeps its own (true unless stored otherwise) and refuses another.
 */
export const activeByDefaultProblem = (visibility: string, sent: boolean, current: boolean): string | null =>
  isShared(visibility) || sent === current
    ? null
    : 'active_by_default applies only to shared Knaps (visibility public or your organization): this Knap is private';

/**
 * `can_toggle_default_active` as its viewer sees it: true when the Knap is shared and the
 * viewer created it (an API client) or administers its organization (`admin`).
 */
export const canToggleDefaultActive = (visibility: string, viewerIsCreatorOrAdmin: boolean): boolean =>
  isShared(visibility) && viewerIsCreatorOrAdmin;

export type KnapViewer = { clientId: string } | 'admin';

/** `can_toggle_default_active` depends on who asks: the creator or an admin, on a shared Knap. */
export const viewedBy = (stored: StoredKnap, viewer: KnapViewer) => {
  const can = canToggleDefaultActive(
    stored.knap.visibility,
    viewer === 'admin' || stored.ownership.creatorClientId === viewer.clientId,
  );
  return can === stored.knap.can_toggle_default_active ? stored.knap : { ...stored.knap, can_toggle_default_active: can };
};
