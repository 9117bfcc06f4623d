// What api-handler imports when a bearer route first needs it: a file of its own, so that a
// function that imports bearer.ts at its cold start keeps it in its one shared file (see
// scripts/bundle-function.mjs) and one that never does never loads it.
export { bearerAuth } from '../bearer.js';
