/**
 * `npx tsx bench/set-churn.ts`: why the deadline watch list (shared/deadlines.ts) is an
 * intrusive list and not a Set. Twenty workers each keep one short-lived object (a promise's
 * resolver and 4 KB) on a long-lived collection while it waits a turn of the event loop, as
 * a request's calls sit on the watch list; 200,000 in all. Each way runs in a child process
 * under `--trace-gc-nvp`, and the bench prints the bytes the young generation's collections
 * promoted to the old one, and the time, against a run that keeps nothing.
 *
 * What it shows: a long-lived Set or Map that objects pass through keeps them, and all they
 * reach, alive through young collections. The likely reason: such a collection is rebuilt as it
 * fills with deleted entries, and a table it left behind in the old generation still points at
 * young objects; a young collection counts every old-to-young pointer as live (it does not
 * know the old table is garbage) until the next full collection.
 */
import { spawnSync } from 'node:child_process';

const WAYS = ['nothing', 'list', 'set', 'map'] as const;
type Way = (typeof WAYS)[number];

interface Node {
  before?: Node;
  after?: Node;
}

const child = async (way: Way): Promise<void> => {
  const set = new Set<object>();
  const map = new Map<number, object>();
  let first: Node | undefined;
  const keep = (item: Node & { id: number }) => {
    if (way === 'set') set.add(item);
    else if (way === 'map') map.set(item.id, item);
    else if (way === 'list') {
      item.after = first;
      if (first) first.before = item;
      first = item;
    }
  };
  const drop = (item: Node & { id: number }) => {
    if (way === 'set') set.delete(item);
    else if (way === 'map') map.delete(item.id);
    else if (way === 'list') {
      if (item.before) item.before.after = item.after;
      else first = item.after;
      if (item.after) item.after.before = item.before;
      item.before = item.after = undefined;
    }
  };
  // The collections to the old generation first, as a server's are long before the load.
  for (let i = 0; i < 50; i++) new Array(100_000).fill(i);
  let done = 0;
  let id = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const item = { id: id++, payload: new Array(500).fill(done), resolve };
      keep(item);
      setImmediate(() => {
        drop(item);
        resolve();
      });
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (done < 200_000) {
        await one();
        done += 1;
      }
    }),
  );
  process.stderr.write(`ms=${(performance.now() - started).toFixed(0)}\n`);
};

const way = process.argv[2] as Way | undefined;
if (way) {
  await child(way);
} else {
  const runs = WAYS.map((each) => {
    const { stdout, stderr } = spawnSync(process.execPath, ['--trace-gc-nvp', '--import', 'tsx', import.meta.filename, each], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    const promoted = [...stdout.matchAll(/ gc=s .*? promoted=(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
    return { way: each, promoted, ms: Number(/ms=(\d+)/.exec(stderr)?.[1]) };
  });
  const nothing = runs[0] as (typeof runs)[number];
  console.log('| kept on | promoted by young collections | time | time / keeping nothing |\n|---|---|---|---|');
  for (const run of runs) {
    console.log(`| ${run.way} | ${(run.promoted / 1e6).toFixed(1)} MB | ${run.ms} ms | ${(run.ms / nothing.ms).toFixed(2)}x |`);
  }
}
