/**
 * Partitions of the due index (see the store's keys): a minute when 100,000 Knaps are due
 * spreads over this many, each drained by its own query. A module of its own: the
 * store's key design reads it in every function, and runs.ts would bring its API schemas
 * (valibot) into every cold start with it.
 */
export const DUE_SHARDS = 16;
