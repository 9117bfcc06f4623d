/**
 * The one route table: the CDK stack makes an HTTP API route and a Lambda per entry,
 * and the local server dispatches to the same handler modules.
 */
export interface RouteDefinition {
  /** Stable id: CDK construct id, `npm run invoke -- <id>`, events/<id>/ folder. */
  readonly id: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** Handler source, relative to the repository root; it exports `handler`. */
  readonly entry: string;
  /** What the function does, for the Lambda description. */
  readonly description: string;
}

export const routes: readonly RouteDefinition[] = [
  {
    id: 'token',
    method: 'POST',
    path: '/api/oauth/token',
    entry: 'functions/token/handler.ts',
    description: 'OAuth 2.0 token endpoint (client_credentials and refresh_token grants)',
  },
  {
    id: 'create-knap',
    method: 'POST',
    path: '/api/studio/knap-tools',
    entry: 'functions/create-knap/handler.ts',
    description: 'Create a Knap for the authenticated API client',
  },
  {
    id: 'list-knaps',
    method: 'GET',
    path: '/api/studio/knap-tools',
    entry: 'functions/list-knaps/handler.ts',
    description: 'List the Knaps the authenticated API client may see',
  },
];
