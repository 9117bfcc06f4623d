/**
 * API client scopes, named as Knapsack's own API names them. Earlier versions called them
 * `knaps:read` and `knaps:write`: those names stay accepted wherever a scope is read (requests,
 * stored clients, tokens sealed before the rename), and every answer says the new names.
 */
export const SCOPES = ['read:knaps', 'write:knaps'] as const;
export type Scope = (typeof SCOPES)[number];

const ALIASES: Readonly<Record<string, Scope>> = { 'knaps:read': 'read:knaps', 'knaps:write': 'write:knaps' };

/** The scope's current name (an alias becomes what it stands for; anything else is left as it is). */
export const canonicalScope = (scope: string): string => ALIASES[scope] ?? scope;

export const isKnownScope = (scope: string): boolean => (SCOPES as readonly string[]).includes(canonicalScope(scope));

/** Current names, each once, in the order SCOPES lists them (unknown names kept last, as given). */
export const canonicalScopes = (scopes: readonly string[]): string[] => {
  const named = new Set(scopes.map(canonicalScope));
  const known = SCOPES.filter((scope) => named.has(scope));
  if (known.length === named.size) return known;
  return [...known, ...[...named].filter((scope) => !(SCOPES as readonly string[]).includes(scope))];
};

/** What a token may do now: what it was issued with, within what its client holds today. */
export const scopesWithin = (tokenScopes: readonly string[], clientScopes: readonly string[]): string[] => {
  const held = new Set(clientScopes.map(canonicalScope));
  return canonicalScopes(tokenScopes).filter((scope) => held.has(scope));
};

/** Only the scopes this version knows, under their current names (what answers show). */
export const knownScopes = (scopes: readonly string[]): Scope[] =>
  SCOPES.filter((scope) => scopes.some((held) => canonicalScope(held) === scope));
