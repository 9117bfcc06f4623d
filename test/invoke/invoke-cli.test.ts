/** `npm run invoke` as people run it, and as docs/local-invoke.md says it runs: exit statuses, streams, function names. */
import { readFile } from 'node:fs/promises';
import { jobs } from '../../functions/jobs.js';
import { FUNCTIONS, routes } from '../../functions/routes.js';
import { functionLogicalId } from '../../lib/functions.js';
import { cleanEnv, spawnNpm } from '../local/processes.js';

const invoke = async (...args: string[]) => {
  const spawned = spawnNpm(
    ['run', '-s', 'invoke', '--', ...args],
    cleanEnv({ DYNAMODB_ENDPOINT: '', POWERTOOLS_LOG_LEVEL: 'SILENT' }),
  );
  try {
    const { code } = await spawned.exited(120_000);
    return { code, out: spawned.stdout(), err: spawned.stderr() };
  } finally {
    spawned.kill();
  }
};

test('with nothing to invoke: the usage on stderr and status 2; --help: status 0', async () => {
  const nothing = await invoke();
  expect(nothing.code).toBe(2);
  expect(nothing.out).toBe('');
  expect(nothing.err).toMatch(/^Nothing to invoke: give a function id, an event file, --all or --seed\n\nUsage:/);
  expect((await invoke('--help')).code).toBe(0);
}, 180_000);

test("a function's events: each summary line on stderr, stdout left for results", async () => {
  const checked = await invoke('oauth-metadata');
  expect(checked.code).toBe(0);
  expect(checked.out).toBe('');
  expect(checked.err).toMatch(/oauth-metadata <- events\/oauth-metadata\/.*: 200 as expected/);
  expect(checked.err).toMatch(/\d+\/\d+ events as expected/);
}, 180_000);

test("docs/local-invoke.md names every function's logical id for sam local invoke", async () => {
  const docs = await readFile(new URL('../../docs/local-invoke.md', import.meta.url), 'utf8');
  const missing = [...FUNCTIONS, ...jobs].map(({ id }) => functionLogicalId(id)).filter((name) => !docs.includes(`\`${name}\``));
  expect(missing).toEqual([]);
  // The functions of routes grouped by area are gone: no doc names one.
  const gone = routes
    .filter((route) => !FUNCTIONS.some((fn) => fn.id === route.id))
    .map(({ id }) => functionLogicalId(id))
    .filter((name) => docs.includes(`\`${name}\``));
  expect(gone).toEqual([]);
});
