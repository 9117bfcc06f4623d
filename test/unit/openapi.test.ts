import { readFileSync } from 'node:fs';
import { routes } from '../../functions/routes.js';
import { openApiDocument } from '../../shared/openapi/document.js';

test('docs/openapi.json is what the schemas say (run `npm run openapi` after changing them)', () => {
  const committed = JSON.parse(readFileSync('docs/openapi.json', 'utf8'));
  expect(committed).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  expect(Object.keys(committed.components.schemas).sort()).toEqual([
    'AuthorizationServerMetadata',
    'CreateKnap',
    'Error',
    'Knap',
    'KnapListing',
    'KnapPatch',
    'MeetingRuns',
    'MeetingTranscription',
    'Run',
    'RunMeeting',
    'RunMessage',
    'RunPage',
    'SchedulePreview',
    'SchedulePreviewRequest',
    'TokenForm',
    'TokenIntrospection',
    'TokenOperationForm',
    'TokenResponse',
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
