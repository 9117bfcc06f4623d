// Loaded on first use by api-handler (see on-use/bearer.ts).
export { adminAuth } from '../admin-auth.js';
