/** `npm run openapi`: writes docs/openapi.json from the schemas (a test fails when it is stale). */
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../shared/openapi/document.js';

writeFileSync('docs/openapi.json', `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log('Wrote docs/openapi.json');
