import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

/** Amazon's DynamoDB Local: the jar shipped inside the npm package amplify-dynamodb-simulator. */
const emulatorDir = (): string =>
  join(dirname(createRequire(import.meta.url).resolve('amplify-dynamodb-simulator/package.json')), 'emulator');

const waitForPort = async (port: number, child: ChildProcess, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with status ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}`).then(
      () => true,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`DynamoDB Local did not listen on port ${port} within ${timeoutMs} ms`);
};

/** Starts DynamoDB Local in memory with the machine's `java`; the caller stops it. */
export const startDynamoDbLocal = async (port: number): Promise<DynamoDbLocal> => {
  const child = spawn(
    'java',
    ['-Djava.library.path=./DynamoDBLocal_lib', '-jar', 'DynamoDBLocal.jar', '-inMemory', '-port', String(port)],
    { cwd: emulatorDir(), stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const spawnFailed = once(child, 'error').then(([error]) => {
    throw new Error(`Could not run java: ${(error as Error).message}`);
  });
  await Promise.race([waitForPort(port, child, 60_000), spawnFailed]);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
};
