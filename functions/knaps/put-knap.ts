/**
 * PUT /api/studio/knap-tools/{uuid}: Knapsack's update. Every field is optional and the
 * fields given change, as PATCH's merge patch does (Knapsack's clients send PUT), with the
 * same validation, ETag, If-Match and answer: PATCH's handler, under a route id of its own.
 */
export { createHandler, handler, stores } from './update-knap.js';
