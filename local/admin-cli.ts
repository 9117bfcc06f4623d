import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import packageJson from '../package.json' with { type: 'json' };
import { CLI_ACTOR } from '../shared/domain/audit.js';
import { type ClientSummary, effectiveRateLimit, MAX_RATE_LIMIT } from '../shared/domain/clients.js';
import { epochSeconds } from '../shared/domain/clock.js';
import {
  checkedLimit,
  DEFAULT_QUOTAS,
  QUOTA_KINDS,
  QUOTA_NOUNS,
  type QuotaKind,
  type QuotaLimits,
  type QuotaUsage,
} from '../shared/domain/quotas.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint, type WebhookEventType } from '../shared/domain/webhooks.js';
import { ApiError } from '../shared/errors.js';
import { type Deps, defaultRateLimitFromEnv, tableNameFromEnv } from '../shared/runtime.js';
import { createAdmin } from '../shared/services/admin-accounts.js';
import {
  AdminError,
  type ClientWithSecret,
  createApiClient,
  listApiClients,
  regenerateSecret,
  revokeClient,
  setRateLimit,
  setScopes,
  validateRateLimit,
  validateScopes,
} from '../shared/services/admin-service.js';
import { recordAudit } from '../shared/services/audit-log.js';
import { setClientJwks } from '../shared/services/client-keys.js';
import { addClientSecret, removeClientSecret } from '../shared/services/client-secrets.js';
import { runMigrations } from '../shared/services/migrations.js';
import { rotateOrgWebhookSecret } from '../shared/services/org-webhook-secret.js';
import { testOrgWebhook, testSendOptions } from '../shared/services/org-webhook-test.js';
import type { OrgAdmin } from '../shared/services/request-state.js';
import { addWebhook, listWebhooks, removeWebhook, type WebhookSummary } from '../shared/services/webhook-admin.js';
import { cognitoClient, createCognitoAdmin } from './cognito-admins.js';
import { endpointDoesNotAnswer, unreachableReason } from './connection-errors.js';

export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}

/** How the CLI was started, for its usage line: `npm run -s admin --` in a clone, `knap-admin` installed. */
export const DEFAULT_PROGRAM = 'npm run -s admin --';

export const usage = (program = DEFAULT_PROGRAM): string => `Usage: ${program} <command> [options]

Commands:
  create-client --org ORG --name NAME [--description D] [--rate-limit N] [--user-id N] [--scopes S] [--json]
  list-clients --org ORG [--json]
  regenerate-secret CLIENT_ID [--json]
  revoke-client CLIENT_ID [--json]
  set-rate-limit CLIENT_ID N|default [--json]
  set-scopes CLIENT_ID --scopes S [--json]
  add-secret CLIENT_ID [--expires-in-days N] [--json]
  remove-secret CLIENT_ID SECRET_ID [--json]
  set-jwks CLIENT_ID --jwks FILE [--json]
  add-webhook --org ORG --url URL [--event-types T1,T2] [--description D] [--json]
  list-webhooks --org ORG [--json]
  remove-webhook ENDPOINT_ID [--json]
  rotate-webhook-secret ENDPOINT_ID [--json]
  test-webhook ENDPOINT_ID [--json]
  create-admin --org ORG --email EMAIL [--password P] [--user-pool POOL_ID] [--json]
  backfill-due-index [--json]
  backfill-run-index [--json]
  migrate-revocations [--json]
  migrate [--json]
  set-quota --org ORG [--knaps N] [--subhourly-schedules N] [--endpoints N] [--clients N] [--json]
  show-quota --org ORG [--json]
  recount-quotas [--json]
  --version, --help

--scopes: what the client's tokens may do, comma or space separated: read:knaps, write:knaps (both
when not given; the old names knaps:read and knaps:write are accepted). set-scopes applies to the
client's live tokens at once.

add-secret gives a client a second live secret (printed once, with its id) for a rotation without
downtime; once the integration uses it, remove-secret retires the old one (the admin API's GET
/api/admin/clients/{client_id} and the console list every secret's id and last use). set-jwks registers the public keys (a JSON file
{"keys": [...]}) of private_key_jwt client authentication.

A client without a limit of its own follows the deployment's DEFAULT_RATE_LIMIT (100 unless set).

Each organization may hold at most its quota of Knaps, schedules more frequent than hourly, webhook
endpoints and active API clients: the deployment's QUOTA_KNAPS (default ${DEFAULT_QUOTAS.knaps}),
QUOTA_SUBHOURLY_SCHEDULES (${DEFAULT_QUOTAS.subhourly}), QUOTA_WEBHOOK_ENDPOINTS (${DEFAULT_QUOTAS.endpoints}, never more) and QUOTA_CLIENTS
(${DEFAULT_QUOTAS.clients}), or its own from set-quota (N, or "default" to follow the deployment again). One more is
refused (409); an organization already over a lowered quota keeps what it has. recount-quotas
counts every organization again from the table (after a crash, or to check).

Runs of the organization's Knaps are delivered to every webhook endpoint it has, signed with the
endpoint's whsec_ secret (Standard Webhooks). URLs must be https and public; with DYNAMODB_ENDPOINT set
(a local DynamoDB), http://127.0.0.1 and http://localhost (any port) are allowed too. --event-types
limits an endpoint to some of ${WEBHOOK_EVENT_TYPES.join(', ')} (default: every type).

backfill-due-index gives scheduled Knaps stored before runs existed their entry in the due index, so
the dispatcher runs them; run it once after deploying the version that added runs (idempotent).
backfill-run-index does the same for runs made before admins could list them (GET /api/admin/runs).

create-admin makes an organization admin of the local identity provider (npm start); without
--password a password is generated and printed once. Passwords are kept only as scrypt hashes.
With --user-pool (the stack's AdminUserPoolId output) it makes them in Cognito instead: a user named by
the e-mail, in the group named by the organization (made if missing); Cognito e-mails a temporary
password unless --password gives one.

Every change to clients, webhook endpoints and admins is written to the organization's audit log
(actor "cli").

migrate runs every step that brings items of earlier versions to this version's shape (the steps
above, and those later releases add), in order; each is idempotent, so run it after every deploy.

migrate-revocations moves the token revocations that versions before revocation items kept on client
items (rv_ attributes) out of them: those still in force become revocation items, then every mark is
removed. Run it once the version with revocation items is deployed everywhere (idempotent).

Environment: DYNAMODB_ENDPOINT (a local DynamoDB; unset = the deployed table, through the AWS
credentials chain), TABLE_NAME (default knap), AWS_REGION (unset: your AWS profile's region; a local
DynamoDB needs none), DEFAULT_RATE_LIMIT (the deployment's default, shown for clients without a limit
of their own; default 100)

Exit status: 0 done; 2 bad arguments, an unknown or revoked client or webhook endpoint, or AWS settings to fix
(credentials, region, DYNAMODB_ENDPOINT, TABLE_NAME), with one line on stderr; 1 DynamoDB failed.`;

const effectiveLimit = (client: ClientSummary): number => effectiveRateLimit(client, defaultRateLimitFromEnv());

const limitText = (client: ClientSummary): string => `${effectiveLimit(client)}${client.rateLimit === null ? ' (default)' : ''}`;

/** The admin-facing view of a client, snake_case like the API. Never a secret or its hash. */
const clientJson = (client: ClientSummary) => ({
  client_id: client.clientId,
  org_name: client.orgName,
  name: client.name,
  description: client.description,
  status: client.status,
  rate_limit: effectiveLimit(client),
  rate_limit_is_default: client.rateLimit === null,
  user_id: client.userId,
  scopes: client.scopes.join(' '),
  created_at: client.createdAt,
  last_used_at: client.lastUsedAt,
});

const withSecret = (client: ClientWithSecret) => ({ ...clientJson(client), client_secret: client.clientSecret });

const table = (rows: string[][]): string[] => {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
};

const secretLines = (heading: string, client: ClientWithSecret): string[] => [
  heading,
  '',
  ...table([
    ['Client ID', client.clientId],
    ['Client secret', client.clientSecret],
    ['Organization', client.orgName],
    ['Rate limit', `${limitText(client)} requests/minute`],
    ['User id', String(client.userId)],
    ['Scopes', client.scopes.join(' ')],
  ]).map((line) => `  ${line}`),
  '',
  'The secret is shown only this once: store it now. It cannot be shown again, only regenerated.',
];

/** The admin-facing view of a webhook endpoint, snake_case like the API. */
const webhookJson = (endpoint: WebhookSummary) => ({
  endpoint_id: endpoint.endpointId,
  org_name: endpoint.orgName,
  url: endpoint.url,
  created_at: endpoint.createdAt,
  event_types: endpoint.eventTypes ?? null,
  description: endpoint.description ?? null,
  disabled: endpoint.disabled ?? false,
});

const QUOTA_OPTIONS: [QuotaKind, 'knaps' | 'subhourly-schedules' | 'endpoints' | 'clients'][] = [
  ['knaps', 'knaps'],
  ['subhourly', 'subhourly-schedules'],
  ['endpoints', 'endpoints'],
  ['clients', 'clients'],
];

/** A quota as typed: a whole number from 0, or "default" (null). Endpoints never above the contract's 20. */
const quotaArg = (kind: QuotaKind, value: string, name: string): number | null => {
  if (value === 'default') return null;
  const limit = /^\d+$/.test(value) ? checkedLimit(kind, Number(value)) : null;
  if (limit === null) throw new AdminError(`${name} must be a whole number from 0, or "default", got "${value}"`);
  return limit;
};

interface QuotaRow {
  kind: QuotaKind;
  used: number;
  quota: number;
  own: boolean;
}

const quotaRows = (usage: QuotaUsage, defaults: QuotaLimits): QuotaRow[] =>
  QUOTA_KINDS.map((kind) => ({
    kind,
    used: usage.counts[kind],
    quota: usage.own[kind] ?? defaults[kind],
    own: usage.own[kind] !== null,
  }));

const quotaTable = (rows: QuotaRow[]): string[] =>
  table([
    ['QUOTA', 'USED', 'LIMIT', 'SET BY'],
    ...rows.map((row) => [QUOTA_NOUNS[row.kind], String(row.used), String(row.quota), row.own ? 'set-quota' : 'default']),
  ]).map((line) => `  ${line}`);

/** `--event-types a,b`: each a known type (else exit 2); absent: every type. */
const eventTypesArg = (value: string | undefined): WebhookEventType[] | null => {
  if (value === undefined) return null;
  const types = value
    .split(',')
    .map((type) => type.trim())
    .filter((type) => type !== '');
  const unknown = types.find((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));
  if (unknown !== undefined || types.length === 0) {
    throw new AdminError(
      `--event-types must list some of ${WEBHOOK_EVENT_TYPES.join(', ')}${unknown ? `, not "${unknown}"` : ''}`,
    );
  }
  return [...new Set(types as WebhookEventType[])];
};

/** The CLI acts for the endpoint's own organization, as `cli` in its audit log. */
const endpointOwner = async (deps: Deps, endpointId: string): Promise<OrgAdmin> => {
  const endpoint = await deps.repo.getWebhookEndpoint(endpointId);
  if (!endpoint) throw new AdminError(`No webhook endpoint with id ${endpointId}`);
  return { orgName: endpoint.orgName, actor: CLI_ACTOR };
};

const webhookSecretLines = (endpoint: WebhookEndpoint): string[] => [
  `Added webhook endpoint for organization ${endpoint.orgName}`,
  '',
  ...table([
    ['Endpoint ID', endpoint.endpointId],
    ['URL', endpoint.url],
    ['Secret', endpoint.secret],
  ]).map((line) => `  ${line}`),
  '',
  'The secret is shown only this once: store it now. Verify the webhook-signature of every delivery',
  'with it (any Standard Webhooks library). To change it, add a new endpoint and remove this one.',
];

const positiveInt = (value: string | undefined, name: string): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new AdminError(`${name} must be a positive whole number, got "${value}"`);
  return Number(value);
};

/** A whole number (negative ones included, so `-1` gets the range message rather than a parse error), checked against the allowed range. */
const rateLimitArg = (value: string | undefined, name: string, orDefault = ''): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) {
    throw new AdminError(
      `${name} must be a whole number from 1 to ${MAX_RATE_LIMIT} (requests per minute)${orDefault}, got "${value}"`,
    );
  }
  return validateRateLimit(Number(value));
};

/**
 * parseArgs reads `-1` as an unknown option `-1`, and `--rate-limit -5` as a missing value.
 * Negative numbers are values here, so they are hidden from it behind a NUL (which no
 * command-line argument can contain) and unwrapped afterwards.
 */
const NUMBER_MARK = '\u0000';
const hideNegativeNumbers = (argv: string[]): string[] => argv.map((arg) => (/^-\d/.test(arg) ? NUMBER_MARK + arg : arg));
const unhide = <T extends string | boolean | undefined>(value: T): T =>
  (typeof value === 'string' && value.startsWith(NUMBER_MARK) ? value.slice(NUMBER_MARK.length) : value) as T;

/** The services shared with the admin API refuse with HTTP errors; the CLI says them on one line (exit 2). */
const viaApiErrors = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) throw new AdminError(error.message);
    throw error;
  }
};

const scopesArg = (value: string): string[] => validateScopes(value.split(/[\s,]+/).filter(Boolean));

const required = (value: string | undefined, name: string): string => {
  if (value === undefined || value.trim() === '') throw new AdminError(`Missing ${name}`);
  return value;
};

const OPTIONS = {
  org: { type: 'string' },
  name: { type: 'string' },
  url: { type: 'string' },
  description: { type: 'string' },
  'rate-limit': { type: 'string' },
  'user-id': { type: 'string' },
  'event-types': { type: 'string' },
  knaps: { type: 'string' },
  'subhourly-schedules': { type: 'string' },
  endpoints: { type: 'string' },
  clients: { type: 'string' },
  scopes: { type: 'string' },
  'expires-in-days': { type: 'string' },
  jwks: { type: 'string' },
  version: { type: 'boolean', default: false },
  email: { type: 'string' },
  password: { type: 'string' },
  'user-pool': { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export interface AdminOptions {
  /**
   * Accept http://127.0.0.1 and http://localhost webhook URLs; default: when DYNAMODB_ENDPOINT
   * is set, i.e. against a local DynamoDB, whose deliveries come from npm start on this machine.
   */
  allowLocalhost?: boolean;
  /** The name the usage line gives (see DEFAULT_PROGRAM). */
  program?: string;
  /** What --version prints; default: the package's version. */
  version?: string;
  /** The Cognito client of `create-admin --user-pool`; default: from the environment. */
  cognito?: () => CognitoIdentityProviderClient;
}

/**
 * Runs one admin command; returns the process exit status. The dependencies are asked for
 * only once the arguments are known to be good, so a usage error needs no AWS setup.
 */
export const runAdmin = async (
  argv: string[],
  getDeps: () => Deps | Promise<Deps>,
  io: AdminIo,
  options: AdminOptions = {},
): Promise<number> => {
  try {
    const parsed = parseArgs({ args: hideNegativeNumbers(argv), options: OPTIONS, allowPositionals: true, strict: true });
    const values = Object.fromEntries(
      Object.entries(parsed.values).map(([name, value]) => [name, unhide(value)]),
    ) as typeof parsed.values;
    const [command, ...args] = parsed.positionals.map(unhide);
    if (values.version) {
      io.out(options.version ?? packageJson.version);
      return 0;
    }
    if (values.help || command === undefined || command === 'help') {
      io.out(usage(options.program));
      return command === undefined && !values.help ? 2 : 0;
    }
    const print = (json: unknown, human: string[]) =>
      values.json
        ? io.out(JSON.stringify(json, null, 2))
        : human.forEach((line) => {
            io.out(line);
          });
    const clientId = () => required(args[0], 'CLIENT_ID');

    switch (command) {
      case 'create-client': {
        const input = {
          orgName: required(values.org, '--org'),
          name: required(values.name, '--name'),
          description: values.description,
          rateLimit: rateLimitArg(values['rate-limit'], '--rate-limit'),
          userId: positiveInt(values['user-id'], '--user-id'),
          scopes: values.scopes === undefined ? undefined : scopesArg(values.scopes),
        };
        const client = await createApiClient(await getDeps(), input);
        print(withSecret(client), secretLines(`Created API client "${client.name}" for organization ${client.orgName}`, client));
        return 0;
      }
      case 'list-clients': {
        const org = required(values.org, '--org');
        const clients = await listApiClients(await getDeps(), org);
        const rows = clients.map((c) => [
          c.name,
          c.description || '-',
          c.clientId,
          c.status,
          String(effectiveLimit(c)),
          c.lastUsedAt ?? 'never',
        ]);
        print(
          clients.map(clientJson),
          clients.length === 0
            ? [`No API clients in organization ${values.org}`]
            : table([['NAME', 'DESCRIPTION', 'CLIENT ID', 'STATUS', 'RATE LIMIT/MIN', 'LAST USED'], ...rows]),
        );
        return 0;
      }
      case 'regenerate-secret': {
        const id = clientId();
        const client = await regenerateSecret(await getDeps(), id);
        print(
          withSecret(client),
          secretLines(`New secret for ${client.clientId}. Every earlier access and refresh token has stopped working.`, client),
        );
        return 0;
      }
      case 'revoke-client': {
        const id = clientId();
        const client = await revokeClient(await getDeps(), id);
        print(clientJson(client), [`Revoked ${client.clientId} ("${client.name}"). Its tokens stopped working at once.`]);
        return 0;
      }
      case 'set-rate-limit': {
        const id = clientId();
        const value = required(args[1], 'N (requests per minute, or "default")');
        const limit = value === 'default' ? null : (rateLimitArg(value, 'N', ' or "default"') ?? null);
        const client = await setRateLimit(await getDeps(), id, limit);
        print(clientJson(client), [`Rate limit of ${client.clientId} is now ${limitText(client)} requests/minute.`]);
        return 0;
      }
      case 'set-scopes': {
        const id = clientId();
        const client = await setScopes(await getDeps(), id, scopesArg(required(values.scopes, '--scopes')));
        print(clientJson(client), [`Scopes of ${client.clientId} are now ${client.scopes.join(' ')}.`]);
        return 0;
      }
      case 'add-secret': {
        const id = clientId();
        const days = positiveInt(values['expires-in-days'], '--expires-in-days');
        const added = await viaApiErrors(async () => addClientSecret(await getDeps(), CLI_ACTOR, id, { expiresInDays: days }));
        print({ client_id: id, ...added }, [
          `New secret for ${id}: both secrets work until one is retired.`,
          '',
          ...table([
            ['Secret id', added.secret_id],
            ['Client secret', added.client_secret],
            ['Expires', added.expires_at ?? 'when retired'],
          ]).map((line) => `  ${line}`),
          '',
          'The secret is shown only this once: store it now.',
        ]);
        return 0;
      }
      case 'remove-secret': {
        const id = clientId();
        const secretId = required(args[1], 'SECRET_ID');
        await viaApiErrors(async () => removeClientSecret(await getDeps(), CLI_ACTOR, id, secretId));
        print({ client_id: id, secret_id: secretId, removed: true }, [
          `Retired secret ${secretId} of ${id}: refused from now on.`,
        ]);
        return 0;
      }
      case 'set-jwks': {
        const id = clientId();
        const file = required(values.jwks, '--jwks FILE');
        let body: unknown;
        try {
          body = JSON.parse(readFileSync(file, 'utf8'));
        } catch (error) {
          throw new AdminError(`--jwks: cannot read ${file} as JSON (${(error as Error).message.split('\n')[0]})`);
        }
        const set = await viaApiErrors(async () => setClientJwks(await getDeps(), CLI_ACTOR, id, body));
        print({ client_id: id, ...set }, [`${id} now has ${set.keys.length} public key(s) for private_key_jwt.`]);
        return 0;
      }
      case 'add-webhook': {
        const input = {
          orgName: required(values.org, '--org'),
          url: required(values.url, '--url'),
          eventTypes: eventTypesArg(values['event-types']),
          description: values.description ?? null,
        };
        const allowLocalhost = options.allowLocalhost ?? Boolean(process.env.DYNAMODB_ENDPOINT);
        const endpoint = await addWebhook(await getDeps(), input, { allowLocalhost });
        print({ ...webhookJson(endpoint), secret: endpoint.secret }, webhookSecretLines(endpoint));
        return 0;
      }
      case 'list-webhooks': {
        const org = required(values.org, '--org');
        const endpoints = await listWebhooks(await getDeps(), org);
        print(
          endpoints.map(webhookJson),
          endpoints.length === 0
            ? [`No webhook endpoints in organization ${org}`]
            : table([
                ['ENDPOINT ID', 'URL', 'EVENT TYPES', 'STATE', 'DESCRIPTION', 'CREATED'],
                ...endpoints.map((e) => [
                  e.endpointId,
                  e.url,
                  e.eventTypes?.join(',') ?? 'all',
                  e.disabled ? 'disabled' : 'enabled',
                  e.description || '-',
                  e.createdAt,
                ]),
              ]),
        );
        return 0;
      }
      case 'remove-webhook': {
        const id = required(args[0], 'ENDPOINT_ID');
        await removeWebhook(await getDeps(), id);
        print({ endpoint_id: id, removed: true }, [`Removed webhook endpoint ${id}. No later delivery goes to it.`]);
        return 0;
      }
      case 'rotate-webhook-secret': {
        const id = required(args[0], 'ENDPOINT_ID');
        const deps = await getDeps();
        const { secret } = await viaApiErrors(async () => rotateOrgWebhookSecret(deps, await endpointOwner(deps, id), id));
        print({ endpoint_id: id, secret }, [
          `New secret for webhook endpoint ${id} (shown this once):`,
          `  ${secret}`,
          'For 24 hours every message carries signatures by both the new and the old secret; then only the new.',
        ]);
        return 0;
      }
      case 'test-webhook': {
        const id = required(args[0], 'ENDPOINT_ID');
        const deps = await getDeps();
        const allowLocalhost = options.allowLocalhost ?? Boolean(process.env.DYNAMODB_ENDPOINT);
        const sendOptions = { ...testSendOptions(), allowLocalhost };
        const result = await viaApiErrors(async () =>
          // Room for the whole delivery timeout: a CLI has no request deadline.
          testOrgWebhook(deps, await endpointOwner(deps, id), id, Date.now() + sendOptions.timeoutMs + 5_000, sendOptions),
        );
        print({ endpoint_id: id, ...result }, [
          result.error === null
            ? `webhook.test delivered to ${id}: HTTP ${result.response_status} in ${result.duration_ms} ms`
            : `webhook.test to ${id} failed: ${result.error}`,
        ]);
        return result.error === null ? 0 : 1;
      }
      case 'backfill-due-index': {
        const added = await (await getDeps()).repo.backfillDueIndex();
        print({ added }, [`Due index: ${added} scheduled Knap(s) added; they run from their next occurrence.`]);
        return 0;
      }
      case 'backfill-run-index': {
        const added = await (await getDeps()).repo.backfillOrgRunsIndex();
        print({ added }, [`Runs: ${added} run(s) added to their organization's listing.`]);
        return 0;
      }
      case 'create-admin': {
        const userPoolId = values['user-pool'];
        if (userPoolId !== undefined) {
          const made = await createCognitoAdmin((options.cognito ?? cognitoClient)(), {
            userPoolId: required(userPoolId, '--user-pool'),
            orgName: required(values.org, '--org'),
            email: required(values.email, '--email'),
            password: values.password,
          });
          await recordAudit(await getDeps(), CLI_ACTOR, made.orgName, 'admin.create', { type: 'admin', id: made.email });
          print({ email: made.email, org: made.orgName, password: values.password ?? null, user_pool: userPoolId }, [
            `Created admin ${made.email} of organization ${made.orgName} in ${userPoolId}.`,
            made.emailed
              ? 'Cognito e-mailed a temporary password (valid 3 days); it is changed at the first sign-in.'
              : 'The password given is temporary: it is changed at the first sign-in. Nothing was e-mailed.',
          ]);
          return 0;
        }
        const made = await createAdmin(await getDeps(), {
          orgName: required(values.org, '--org'),
          email: required(values.email, '--email'),
          password: values.password,
        });
        print({ email: made.email, org: made.orgName, password: made.password }, [
          `Created admin ${made.email} of organization ${made.orgName}.`,
          ...(values.password === undefined ? [`Password  ${made.password}  (shown only this once)`] : []),
        ]);
        return 0;
      }
      case 'migrate-revocations': {
        const deps = await getDeps();
        const done = await deps.repo.migrateClientRevocations(epochSeconds(deps.clock.now()));
        print({ ...done }, [
          `Revocation marks: ${done.removed} removed from ${done.clients} client(s); ${done.moved} still in force now kept as revocation items.`,
        ]);
        return 0;
      }
      case 'set-quota': {
        const org = required(values.org, '--org');
        const limits: Partial<Record<QuotaKind, number | null>> = {};
        for (const [kind, option] of QUOTA_OPTIONS) {
          const value = values[option];
          if (value !== undefined) limits[kind] = quotaArg(kind, value, `--${option}`);
        }
        if (Object.keys(limits).length === 0)
          throw new AdminError('Give at least one of --knaps, --subhourly-schedules, --endpoints, --clients');
        const deps = await getDeps();
        await deps.repo.setOrgQuotas(org, limits);
        const shown = quotaRows(await deps.repo.quotaUsage(org), deps.quotas ?? DEFAULT_QUOTAS);
        print({ org_name: org, quotas: shown }, [`Quotas of organization ${org}:`, ...quotaTable(shown)]);
        return 0;
      }
      case 'show-quota': {
        const org = required(values.org, '--org');
        const deps = await getDeps();
        const shown = quotaRows(await deps.repo.quotaUsage(org), deps.quotas ?? DEFAULT_QUOTAS);
        print({ org_name: org, quotas: shown }, [`Quotas of organization ${org}:`, ...quotaTable(shown)]);
        return 0;
      }
      case 'recount-quotas': {
        const organizations = await (await getDeps()).repo.recountQuotas(true);
        print({ organizations }, [`Quota counts: ${organizations} organization(s) counted again from the table.`]);
        return 0;
      }
      case 'migrate': {
        const steps = await runMigrations(await getDeps());
        print(
          { steps },
          steps.map(
            ({ id, description, changed }) =>
              `${id}: ${Object.entries(changed)
                .map(([kind, count]) => `${count} ${kind}`)
                .join(', ')} (${description})`,
          ),
        );
        return 0;
      }
      default:
        throw new AdminError(`Unknown command "${command}". Run with --help for the commands.`);
    }
  } catch (error) {
    const problem = describe(error);
    io.err(`error: ${problem.message}`);
    return problem.status;
  }
};

// By code, not `instanceof TypeError`: node:util's errors are of another realm under Jest.
const isUsageError = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS');

/** DynamoDB refused who we are: the admin's AWS setup to fix, like missing credentials. */
const REFUSED_CREDENTIALS = new Set([
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'ExpiredTokenException',
  'AccessDeniedException',
]);

/**
 * One line for stderr, and the exit status: 2 for anything the admin can fix (arguments,
 * client id, the table, region, credentials or endpoint settings), as documented; 1 for
 * failures of DynamoDB itself.
 */
const describe = (error: unknown): { message: string; status: number } => {
  const fix = (message: string) => ({ message, status: 2 });
  // Read by shape: errors from Node itself are of another realm under Jest.
  const { name = '', message = '' } =
    typeof error === 'object' && error !== null ? (error as { name?: string; message?: string }) : {};
  const firstLine = String(message).split('\n')[0] ?? '';
  const unknownOption = isUsageError(error) && /^Unknown option '([^']+)'/.exec(firstLine);
  if (unknownOption) return fix(`Unknown option ${unknownOption[1]}. Run with --help for the commands and their options.`);
  if (error instanceof AdminError || isUsageError(error) || name === 'QuotaExceededError') return fix(firstLine);
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  if (name === 'ResourceNotFoundException') {
    return fix(
      endpoint
        ? `Table ${tableNameFromEnv()} not found at ${endpoint}. Is npm start running, and TABLE_NAME set to its table?`
        : `Table ${tableNameFromEnv()} not found in ${process.env.AWS_REGION}. Set TABLE_NAME and AWS_REGION to the deployed table's.`,
    );
  }
  const unreachable = unreachableReason(error);
  if (unreachable) {
    return fix(
      endpoint
        ? `${endpointDoesNotAnswer(endpoint, unreachable)}. Is npm start running?`
        : `DynamoDB in ${process.env.AWS_REGION} does not answer: ${unreachable}`,
    );
  }
  if (name === 'CredentialsProviderError') {
    return fix(
      'No AWS credentials found. Set DYNAMODB_ENDPOINT for a local DynamoDB, or configure AWS credentials for the deployed table.',
    );
  }
  if (REFUSED_CREDENTIALS.has(name)) return fix(`AWS refused the credentials: ${firstLine}`);
  return { message: firstLine || name || String(error), status: 1 };
};

/**
 * The region of the deployed table: AWS_REGION (or AWS_DEFAULT_REGION, as the AWS CLI reads
 * it), else the SDK's own chain, i.e. the profile's region in ~/.aws/config. Never a silent
 * us-east-1, which would be another table than the admin meant.
 */
export const deployedRegion = async (): Promise<string> => {
  const fromEnv = process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION;
  if (fromEnv) return fromEnv;
  const probe = new DynamoDBClient({});
  try {
    return await probe.config.region();
  } catch {
    throw new AdminError(
      'No AWS region: set AWS_REGION or a region in your AWS profile, or DYNAMODB_ENDPOINT for a local DynamoDB.',
    );
  } finally {
    probe.destroy();
  }
};
