/**
 * The OpenAPI document fits code generators: openapi-typescript, with its default settings,
 * makes types from it under which the bodies a client writes first compile (`POST {name}`,
 * `PATCH {name}`, `PUT {name}`, a schedule preview without `count`), and a body missing what
 * the API requires does not. The generated file and a small client file are type-checked with
 * tsc, as a client project would.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import packageJson from '../../package.json' with { type: 'json' };
import { openApiDocument } from '../../shared/openapi/document.js';

const run = promisify(execFile);
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});
const bin = (name: string) => join(process.cwd(), 'node_modules', '.bin', name);

const CLIENT = `import type { components, paths } from './api.js';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Knaps = paths['/api/studio/knap-tools'];
type OneKnap = paths['/api/studio/knap-tools/{uuid}'];

export const create: Json<Knaps['post']['requestBody']> = { name: 'Weekly digest' };
export const patch: Json<OneKnap['patch']['requestBody']> = { name: 'Renamed' };
export const put: Json<OneKnap['put']['requestBody']> = { name: 'Renamed' };
export const reset: Json<OneKnap['patch']['requestBody']> = { schedule_type: null, tool_metadata: { timezone: null } };
export const preview: Json<paths['/api/studio/schedules/preview']['post']['requestBody']> = {
  schedule_description: 'every Monday at 9am',
};
export const adminPatch: components['schemas']['AdminKnapPatch'] = { is_active: false };
export const deleted: components['schemas']['KnapDeleted'] = { message: 'Knap deleted successfully' };
`;

const tsconfig = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    skipLibCheck: false,
    types: [],
  },
  files: ['api.d.ts', 'client.ts'],
};

const typeCheck = async (dir: string): Promise<{ ok: boolean; output: string }> => {
  try {
    await run(bin('tsc'), ['-p', dir], { cwd: dir });
    return { ok: true, output: '' };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
};

test('the document is versioned as the package', () => {
  expect(openApiDocument().info.version).toBe(packageJson.version);
});

test('openapi-typescript with default settings: the first bodies a client writes compile, a body without name does not', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'knap-openapi-typescript-'));
  folders.push(dir);
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(openApiDocument()));
  await run(bin('openapi-typescript'), [join(dir, 'openapi.json'), '-o', join(dir, 'api.d.ts')], { cwd: dir });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  writeFileSync(join(dir, 'client.ts'), CLIENT);
  expect(await typeCheck(dir)).toEqual({ ok: true, output: '' });

  // The check bites: a create body without its one required member is refused.
  writeFileSync(join(dir, 'client.ts'), `${CLIENT}\nexport const nameless: Json<Knaps['post']['requestBody']> = {};\n`);
  const refused = await typeCheck(dir);
  expect(refused.ok).toBe(false);
  expect(refused.output).toMatch(/Property 'name' is missing/);
}, 120_000);
