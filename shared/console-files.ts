/**
 * The admin console's files (built by scripts/build-console.ts into console/dist): deployed they
 * sit beside the function's bundle (copied at synth), locally they are read from console/dist.
 * The page is given what it needs to sign in (the issuer, its client id, scope and claim) in a
 * JSON block, and a Content-Security-Policy that allows no inline script and no other origin but
 * the identity provider's.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CONSOLE_FILES: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

const beside = (file: string): string => fileURLToPath(new URL(`./${file}`, import.meta.url));
const locate = (file: string): string =>
  existsSync(beside(file)) ? beside(file) : fileURLToPath(new URL(`../console/dist/${file}`, import.meta.url));

/** What the page names a file by (`?v=`): its content's hash, so a browser may keep it for good. */
export const contentVersion = (text: string | Uint8Array): string => createHash('sha256').update(text).digest('hex').slice(0, 12);

export interface ConsoleFile {
  text: string;
  version: string;
}

const cache = new Map<string, ConsoleFile>();
/** A built file and its version; null when the console was not built (npm run build:console). */
export const consoleFile = (file: string): ConsoleFile | null => {
  let found = cache.get(file);
  if (found === undefined) {
    const path = locate(file);
    if (!existsSync(path)) return null;
    const text = readFileSync(path, 'utf8');
    found = { text, version: contentVersion(text) };
    // Under npm start the console may be rebuilt while the server runs: read it again then.
    if (existsSync(beside(file))) cache.set(file, found);
  }
  return found;
};

export interface ConsoleSettings {
  issuer: string;
  clientId: string;
  scope: string;
  orgClaim: string;
  signOutUrl?: string;
}

/** ADMIN_ISSUER, ADMIN_CONSOLE_CLIENT_ID (else ADMIN_AUDIENCE), ADMIN_CONSOLE_SCOPE, ADMIN_ORG_CLAIM, ADMIN_SIGN_OUT_URL. */
export const consoleSettingsFromEnv = (env: NodeJS.ProcessEnv = process.env): ConsoleSettings | null => {
  const clientId = env.ADMIN_CONSOLE_CLIENT_ID || env.ADMIN_AUDIENCE;
  if (!env.ADMIN_ISSUER || !clientId) return null;
  return {
    issuer: env.ADMIN_ISSUER,
    clientId,
    scope: env.ADMIN_CONSOLE_SCOPE || 'openid email',
    orgClaim: env.ADMIN_ORG_CLAIM || 'org',
    ...(env.ADMIN_SIGN_OUT_URL ? { signOutUrl: env.ADMIN_SIGN_OUT_URL } : {}),
  };
};

const originOf = (url: string | undefined): string[] => {
  try {
    return url ? [new URL(url).origin] : [];
  } catch {
    return [];
  }
};

/** The page's policy: its own scripts and styles only; fetches to itself and the identity provider. */
export const consolePolicy = (settings: ConsoleSettings | null): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${["'self'", ...new Set([...originOf(settings?.issuer), ...originOf(settings?.signOutUrl)])].join(' ')}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

/** The page, with the settings in its JSON block (`<` escaped: the block can never close early). */
export const consolePage = (settings: ConsoleSettings | null): string | null =>
  consoleFile('index.html')?.text.replace('"__CONFIG__"', JSON.stringify(settings ?? {}).replace(/</g, '\\u003c')) ?? null;
