import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../local/ports.js';
import { cleanEnv, repoRoot, type Spawned, spawnStart, tempDir } from './processes.js';

/**
 * The README's walk-through, run as written (`bash -euo pipefail`) against a fresh `npm start`,
 * so the README can never drift from what the API answers. The contract: it is the first `sh`
 * block under the heading "Walk-through".
 */
const walkThrough = (): string => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const section = readme.split(/^## Walk-through$/m)[1];
  if (section === undefined) throw new Error('README.md has no "## Walk-through" heading');
  const block = /^```sh\n([\s\S]*?)^```$/m.exec(section);
  if (!block?.[1]) throw new Error('no sh block under "## Walk-through" in README.md');
  return block[1];
};

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Processes of the script's group still running after it exited. */
  left: string[];
}

/** The script in bash, in its own process group; SIGKILL to the group if it overruns. */
const runScript = (script: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Ran> =>
  new Promise((resolve) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: repoRoot,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pid = child.pid as number;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const killGroup = () => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${timeoutMs} ms)`;
      killGroup();
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      // Anything the script started and left behind (the webhook receiver) is still in its
      // process group; zombies (an orphaned esbuild of tsx waiting to be reaped) do not count.
      const left = execFileSync('ps', ['-eo', 'pgid=,stat=,args='])
        .toString()
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .filter(([pgid, stat]) => pgid === String(pid) && !stat?.startsWith('Z'))
        .map((fields) => fields.slice(2).join(' '));
      killGroup();
      resolve({ code, stdout, stderr, left });
    });
  });

/** What `mktemp -d` made in the script's TMPDIR and left there (tsx keeps a cache of its own there). */
const scratch = (tmp: string): string[] => readdirSync(tmp).filter((name) => name.startsWith('tmp.'));

let server: Spawned | undefined;
let scriptEnv: NodeJS.ProcessEnv;
const folders: ReturnType<typeof tempDir>[] = [];

const folder = (prefix: string): string => {
  const made = tempDir(prefix);
  folders.push(made);
  return made.path;
};

beforeAll(async () => {
  const port = String(await freePort());
  const dynamodbPort = String(await freePort());
  server = spawnStart({
    PORT: port,
    DYNAMODB_PORT: dynamodbPort,
    DATA_DIR: folder('knap-walkthrough-data-'),
    ACCESS_LOG: 'false',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
  });
  await server.waitForStdout(/Knap API listening/, 30_000);
  scriptEnv = cleanEnv({
    KNAP_API: `http://127.0.0.1:${port}`,
    DYNAMODB_ENDPOINT: `http://127.0.0.1:${dynamodbPort}`,
  });
}, 45_000);

afterAll(() => {
  server?.kill();
  for (const made of folders.splice(0)) made.remove();
});

describe('the README walk-through', () => {
  test('runs as written with bash -euo pipefail, and leaves no process or temp folder behind', async () => {
    const tmp = folder('knap-walkthrough-tmp-');
    const ran = await runScript(walkThrough(), { ...scriptEnv, TMPDIR: tmp }, 45_000);
    if (ran.code !== 0 || ran.left.length > 0) {
      throw new Error(`exit ${ran.code}, left ${ran.left}\nstdout:\n${ran.stdout}\nstderr:\n${ran.stderr}`);
    }
    expect(ran.stdout).toContain('Walk-through done.');
    expect(ran.left).toEqual([]);
    expect(scratch(tmp)).toEqual([]);
  }, 60_000);

  test('fails, naming the status, when a step answers otherwise than written', async () => {
    const script = walkThrough();
    const step = 'call 201 -X POST "$KNAP_API/api/studio/knap-tools"';
    expect(script).toContain(step);
    const tmp = folder('knap-walkthrough-tmp-');
    const ran = await runScript(
      script.replace(step, 'call 200 -X POST "$KNAP_API/api/studio/knap-tools"'),
      { ...scriptEnv, TMPDIR: tmp },
      45_000,
    );
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).toContain('expected HTTP 200, got 201');
    expect(ran.stdout).not.toContain('Walk-through done.');
    expect(ran.left).toEqual([]);
    expect(scratch(tmp)).toEqual([]);
  }, 60_000);
});
