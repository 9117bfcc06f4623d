/** The part of chrono-node the parser uses (leftovers.ts): deployed, a file of its own, chrono.cjs. */
export { parse } from 'chrono-node';
