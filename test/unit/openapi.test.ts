import { readFileSync } from 'node:fs';
import { openApiDocument } from '../../shared/openapi/document.js';

test('docs/openapi.json is what the schemas say (run `npm run openapi` after changing them)', () => {
  const committed = JSON.parse(readFileSync('docs/openapi.json', 'utf8'));
  expect(committed).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  expect(Object.keys(committed.components.schemas).sort()).toEqual([
    'CreateKnap',
    'Error',
    'Knap',
    'KnapListing',
    'KnapPatch',
    'MeetingRuns',
    'MeetingTranscription',
    'Run',
    'RunPage',
    'SchedulePreview',
    'SchedulePreviewRequest',
    'TokenForm',
    'TokenResponse',
  ]);
  expect(JSON.stringify(committed)).not.toContain('$defs');
});
