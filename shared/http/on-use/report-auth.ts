// Loaded on first use by api-handler (see on-use/bearer.ts).
export { reportAuth } from '../report-auth.js';
