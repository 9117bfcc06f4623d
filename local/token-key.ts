import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KEY_FILE = 'token-signing-key';

/**
 * The key `npm start` seals tokens with: TOKEN_SIGNING_KEYS when set; else one made on the
 * first start and kept in the data folder (mode 600), so tokens survive a restart as the
 * stored data does; in memory, a fresh one per start.
 */
export const localTokenKeys = (dataDir: string | undefined, env: NodeJS.ProcessEnv = process.env): string => {
  if (env.TOKEN_SIGNING_KEYS) return env.TOKEN_SIGNING_KEYS;
  const fresh = () => randomBytes(48).toString('base64url');
  if (!dataDir) return fresh();
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, KEY_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = fresh();
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
};
