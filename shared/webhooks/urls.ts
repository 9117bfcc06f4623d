/**
 * Which webhook URLs are acceptable, checked when an admin adds an endpoint and again before
 * every delivery. The address a host name resolves to is checked later, when the connection
 * is made (send.ts): DNS can change between the two.
 */
import { isIP } from 'node:net';
import { addressRefusal } from './addresses.js';

export interface UrlPolicy {
  /**
   * Allow `http(s)://127.0.0.1` and `http(s)://localhost` (any port): against a local
   * DynamoDB only (npm start, tests), where the receiver is on the same machine.
   */
  allowLocalhost: boolean;
}

/**
 * From the environment: WEBHOOKS_ALLOW_LOCALHOST=true is set by the local stack (npm start),
 * never in a deployment, whose Lambda has no such variable.
 */
export const urlPolicyFromEnv = (env: NodeJS.ProcessEnv = process.env): UrlPolicy => ({
  allowLocalhost: env.WEBHOOKS_ALLOW_LOCALHOST === 'true',
});

export type UrlCheck = { ok: true; url: URL; local: boolean } | { ok: false; reason: string };

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Hosts that may be reached over http, and on loopback, when the policy allows localhost. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);

/** The host as an address, without IPv6 brackets; null when it is a name. */
export const literalAddress = (url: URL): string | null => {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : null;
};

export const checkWebhookUrl = (text: string, policy: UrlPolicy): UrlCheck => {
  const refuse = (reason: string): UrlCheck => ({ ok: false, reason });
  if (text.length > MAX_WEBHOOK_URL_LENGTH) return refuse(`The URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Not quoted: a URL's path may hold a secret (Slack, Discord, Teams), and this may be logged.
    return refuse('Not a URL');
  }
  // Credentials in a URL end up in logs and errors; the signature authenticates us anyway.
  if (url.username || url.password) return refuse('The URL must not hold a user name or password');
  const local = LOCAL_HOSTS.has(url.hostname);
  if (local && policy.allowLocalhost) {
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? { ok: true, url, local }
      : refuse('The URL must be http or https');
  }
  if (url.protocol !== 'https:') {
    return refuse(
      policy.allowLocalhost
        ? 'The URL must be https (http only for http://127.0.0.1 and http://localhost)'
        : 'The URL must be https (http://127.0.0.1 and http://localhost only against a local DynamoDB)',
    );
  }
  const address = literalAddress(url);
  const refusal = address
    ? addressRefusal(address)
    : url.hostname === 'localhost' || url.hostname.endsWith('.localhost')
      ? 'a loopback address'
      : null;
  if (refusal) return refuse(`The URL's host ${url.hostname} is ${refusal}; webhooks go to public addresses only`);
  return { ok: true, url, local: false };
};

/**
 * How a URL is named in errors, attempt records and logs: its scheme, host and port only.
 * Slack, Discord, Teams and Zapier keep the secret in the path, and queries carry tokens.
 */
export const describeUrl = (url: URL): string => `${url.protocol}//${url.host}`;

/** describeUrl of a URL as text; `an unreadable URL` when it is none (never the text itself). */
export const describeUrlText = (text: string): string => {
  try {
    return describeUrl(new URL(text));
  } catch {
    return 'an unreadable URL';
  }
};
