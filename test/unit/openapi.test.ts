import { readFileSync } from 'node:fs';
import { routes } from '../../functions/routes.js';
import { AdminRunPageSchema } from '../../shared/domain/runs.js';
import { componentSchemas, LOCAL_SERVER_URL, openApiDocument } from '../../shared/openapi/document.js';
import { AddWebhookRequestSchema, CreateClientRequestSchema, UpdateClientRequestSchema } from '../../shared/schemas/admin.js';

test('docs/openapi.json is what the schemas say (run `npm run openapi` after changing them)', () => {
  const committed = JSON.parse(readFileSync('docs/openapi.json', 'utf8'));
  expect(committed).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  expect(Object.keys(committed.components.schemas).sort()).toEqual([
    'AddSecretRequest',
    'AddWebhookRequest',
    'AdminClient',
    'AdminClientDetail',
    'AdminClientList',
    'AdminKnap',
    'AdminKnapPage',
    'AdminKnapPatch',
    'AdminRun',
    'AdminRunDetail',
    'AdminRunPage',
    'AuditEvent',
    'AuditPage',
    'AuthorizationServerMetadata',
    'ClientJwks',
    'ClientSecret',
    'CreateClientRequest',
    'CreateKnap',
    'DeliveryAttempt',
    'Error',
    'Knap',
    'KnapDeleted',
    'KnapListing',
    'KnapPatch',
    'MeetingRuns',
    'MeetingTranscription',
    'NewAdminClient',
    'NewSecret',
    'NewWebhookEndpoint',
    'RecoverWebhookRequest',
    'Run',
    'RunEvent',
    'RunEventList',
    'RunMeeting',
    'RunMessage',
    'RunPage',
    'RunRedelivery',
    'RunReport',
    'SchedulePreview',
    'SchedulePreviewRequest',
    'StartRun',
    'TokenForm',
    'TokenIntrospection',
    'TokenOperationForm',
    'TokenResponse',
    'UpdateClientRequest',
    'UpdateWebhookRequest',
    'WebhookAttemptPage',
    'WebhookEndpoint',
    'WebhookEndpointList',
    'WebhookRecovery',
    'WebhookSecret',
    'WebhookTestResult',
  ]);
  expect(JSON.stringify(committed)).not.toContain('$defs');
});

test('every route of the route table is an operation of the document, with an operationId', () => {
  const paths: Record<string, Record<string, { operationId?: string }>> = openApiDocument().paths;
  // The reference page's script and style sheet are files, not API operations.
  for (const route of routes.filter(({ id }) => id !== 'docs-asset')) {
    expect({ route: route.id, operationId: paths[route.path]?.[route.method.toLowerCase()]?.operationId }).toEqual({
      route: route.id,
      operationId: expect.any(String),
    });
  }
});

type Response = { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, { schema: { $ref: string } }> };
type Operation = {
  operationId: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, Response>;
};
const operationsOf = (document: ReturnType<typeof openApiDocument>) =>
  Object.entries(document.paths as unknown as Record<string, Record<string, Operation>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );

describe('organization admins (issue 26)', () => {
  const document = openApiDocument();
  const admin = operationsOf(document).filter(({ path }) => path.startsWith('/api/admin/'));

  test('every admin route is an operation of its own tag, with only the OpenID Connect scheme', () => {
    expect(admin.map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort()).toEqual(
      routes
        .filter(({ id }) => id.startsWith('admin-'))
        .map(({ method, path }) => `${method} ${path}`)
        .sort(),
    );
    for (const { operation } of admin) {
      expect(operation.tags).toEqual(['Organization admins']);
      expect(operation.security).toEqual([{ adminOpenIdConnect: [] }]);
    }
    for (const { path, operation } of operationsOf(document).filter(({ path }) => !path.startsWith('/api/admin/'))) {
      expect({ path, schemes: operation.security.flatMap(Object.keys) }).not.toEqual({
        path,
        schemes: expect.arrayContaining(['adminOpenIdConnect']),
      });
    }
    expect(document.tags.map(({ name }) => name)).toContain('Organization admins');
  });

  test("the OpenID Connect scheme points at the admin issuer's discovery document", () => {
    expect(document.components.securitySchemes.adminOpenIdConnect).toMatchObject({
      type: 'openIdConnect',
      openIdConnectUrl: `${LOCAL_SERVER_URL}/oidc/.well-known/openid-configuration`,
    });
    const deployed = openApiDocument(
      'https://api.acme.example',
      'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Ab12Cd34/',
    );
    expect(deployed.components.securitySchemes.adminOpenIdConnect.openIdConnectUrl).toBe(
      'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Ab12Cd34/.well-known/openid-configuration',
    );
    expect(openApiDocument('http://127.0.0.1:4123').components.securitySchemes.adminOpenIdConnect.openIdConnectUrl).toBe(
      'http://127.0.0.1:4123/oidc/.well-known/openid-configuration',
    );
  });

  test('bodies are the schemas the handlers validate with', () => {
    const body = (method: string, path: string) =>
      admin.find((entry) => entry.method === method && entry.path === path)?.operation.requestBody?.content['application/json']
        ?.schema.$ref;
    expect(body('post', '/api/admin/clients')).toBe('#/components/schemas/CreateClientRequest');
    expect(body('patch', '/api/admin/clients/{client_id}')).toBe('#/components/schemas/UpdateClientRequest');
    expect(body('post', '/api/admin/webhooks')).toBe('#/components/schemas/AddWebhookRequest');
    expect(componentSchemas.CreateClientRequest).toBe(CreateClientRequestSchema);
    expect(componentSchemas.UpdateClientRequest).toBe(UpdateClientRequestSchema);
    expect(componentSchemas.AddWebhookRequest).toBe(AddWebhookRequestSchema);
    expect(componentSchemas.AdminRunPage).toBe(AdminRunPageSchema);
  });

  test('answers: success, 400 where a body or query is read, 401 with a challenge, 404, 409, 503, all no-store', () => {
    const success: Record<string, string> = {};
    for (const { method, path, operation } of admin) {
      const name = `${method.toUpperCase()} ${path}`;
      const statuses = Object.keys(operation.responses);
      success[name] = statuses.filter((status) => status.startsWith('2')).join();
      expect({ name, statuses }).toEqual({ name, statuses: expect.arrayContaining(['401', '405', '503']) });
      // A body, a query or a header it reads (Last-Event-ID) can be refused.
      const readsInput =
        operation.requestBody !== undefined || (operation.parameters ?? []).some((p) => p.in === 'query' || p.in === 'header');
      expect({ name, has400: statuses.includes('400') }).toEqual({ name, has400: readsInput });
      const hasId = (operation.parameters ?? []).some((p) => p.in === 'path');
      expect({ name, has404: statuses.includes('404') }).toEqual({ name, has404: hasId });
      expect(Object.keys(operation.responses['401']?.headers ?? {})).toContain('WWW-Authenticate');
      // Everything the functions answer is no-store; 405 (the router) and 429 (API Gateway's throttle) are not theirs.
      for (const [status, response] of Object.entries(operation.responses).filter(
        ([status]) => !['405', '429'].includes(status),
      )) {
        expect({ name, status, cacheControl: response.headers?.['Cache-Control'] }).toEqual({
          name,
          status,
          cacheControl: { schema: { type: 'string', const: 'no-store' } },
        });
      }
    }
    expect(success).toEqual({
      'GET /api/admin/clients': '200',
      'GET /api/admin/clients/{client_id}': '200',
      'POST /api/admin/clients': '201',
      'PATCH /api/admin/clients/{client_id}': '200',
      'DELETE /api/admin/clients/{client_id}': '204',
      'DELETE /api/admin/clients/{client_id}/secrets/{secret_id}': '204',
      'POST /api/admin/clients/{client_id}/secret': '200',
      'POST /api/admin/clients/{client_id}/secrets': '201',
      'GET /api/admin/webhooks': '200',
      'GET /api/admin/webhooks/{endpoint_id}/attempts': '200',
      'POST /api/admin/webhooks': '201',
      'POST /api/admin/webhooks/{endpoint_id}/recover': '202',
      'PUT /api/admin/clients/{client_id}/jwks': '200',
      'DELETE /api/admin/webhooks/{endpoint_id}': '204',
      'POST /api/admin/webhooks/{endpoint_id}/secret': '200',
      'POST /api/admin/webhooks/{endpoint_id}/test': '200',
      'PATCH /api/admin/webhooks/{endpoint_id}': '200',
      'GET /api/admin/runs': '200',
      'GET /api/admin/runs/{run_id}': '200',
      'GET /api/admin/runs/{run_id}/events': '200,204',
      'POST /api/admin/runs/{run_id}/redeliver': '202',
      'GET /api/admin/audit-events': '200',
      'GET /api/admin/knaps': '200',
      'GET /api/admin/knaps/{uuid}': '200',
      'PATCH /api/admin/knaps/{uuid}': '200',
      'DELETE /api/admin/knaps/{uuid}': '200',
    });
    const conflicts = admin.filter(({ operation }) => '409' in operation.responses).map(({ operation }) => operation.operationId);
    expect(conflicts.sort()).toEqual([
      'adminAddSecret',
      'adminDeleteKnap',
      'adminRegenerateSecret',
      'adminRemoveSecret',
      'adminSetJwks',
      'adminUpdateClient',
      'adminUpdateKnap',
    ]);
  });
});

test('405 is documented on every operation: the path with another method, and Allow', () => {
  const document = openApiDocument();
  for (const { path, method, operation } of operationsOf(document)) {
    expect({ path, method, response: operation.responses['405'] }).toEqual({
      path,
      method,
      response: { $ref: '#/components/responses/MethodNotAllowed' },
    });
  }
  expect(Object.keys(document.components.responses.MethodNotAllowed.headers)).toEqual(['Allow']);
});
