/**
 * Why an admin token was refused, for the 401's detail: never more than the caller could know.
 * A module of its own so that the middleware every function shares does not bundle jose.
 */
export class AdminTokenError extends Error {}
