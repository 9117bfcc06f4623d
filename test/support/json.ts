/**
 * Response bodies in tests are checked field by field against literal expectations; a
 * loose type keeps those assertions readable.
 */
// biome-ignore lint/suspicious/noExplicitAny: test assertions on arbitrary JSON
export type Body = Record<string, any>;

export const body = (response: Response): Promise<Body> => response.json() as Promise<Body>;
