import { parseArgs } from 'node:util';
import { type ClientSummary, effectiveRateLimit } from '../shared/domain/clients.js';
import { type Deps, defaultRateLimitFromEnv, tableNameFromEnv } from '../shared/runtime.js';
import {
  AdminError,
  type ClientWithSecret,
  createApiClient,
  listApiClients,
  regenerateSecret,
  revokeClient,
  setRateLimit,
} from '../shared/services/admin-service.js';

export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}

export const USAGE = `Usage: npm run -s admin -- <command> [options]

Commands:
  create-client --org ORG --name NAME [--description D] [--rate-limit N] [--user-id N] [--json]
  list-clients --org ORG [--json]
  regenerate-secret CLIENT_ID [--json]
  revoke-client CLIENT_ID [--json]
  set-rate-limit CLIENT_ID N|default [--json]

A client without a limit of its own follows the deployment's DEFAULT_RATE_LIMIT (100 unless set).

Environment: DYNAMODB_ENDPOINT (a local DynamoDB; unset = AWS via the credentials chain),
TABLE_NAME (default knap), AWS_REGION, DEFAULT_RATE_LIMIT (the deployment's default, shown for
clients without a limit of their own; default 100)`;

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
  ]).map((line) => `  ${line}`),
  '',
  'The secret is shown only this once: store it now. It cannot be shown again, only regenerated.',
];

const positiveInt = (value: string | undefined, name: string): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new AdminError(`${name} must be a positive whole number, got "${value}"`);
  return Number(value);
};

const required = (value: string | undefined, name: string): string => {
  if (value === undefined || value.trim() === '') throw new AdminError(`Missing ${name}`);
  return value;
};

const OPTIONS = {
  org: { type: 'string' },
  name: { type: 'string' },
  description: { type: 'string' },
  'rate-limit': { type: 'string' },
  'user-id': { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Runs one admin command; returns the process exit status. */
export const runAdmin = async (argv: string[], deps: () => Deps, io: AdminIo): Promise<number> => {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    const [command, ...args] = positionals;
    if (values.help || command === undefined || command === 'help') {
      io.out(USAGE);
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
        const client = await createApiClient(deps(), {
          orgName: required(values.org, '--org'),
          name: required(values.name, '--name'),
          description: values.description,
          rateLimit: positiveInt(values['rate-limit'], '--rate-limit'),
          userId: positiveInt(values['user-id'], '--user-id'),
        });
        print(withSecret(client), secretLines(`Created API client "${client.name}" for organization ${client.orgName}`, client));
        return 0;
      }
      case 'list-clients': {
        const clients = await listApiClients(deps(), required(values.org, '--org'));
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
        const client = await regenerateSecret(deps(), clientId());
        print(
          withSecret(client),
          secretLines(`New secret for ${client.clientId}. Every earlier access and refresh token has stopped working.`, client),
        );
        return 0;
      }
      case 'revoke-client': {
        const client = await revokeClient(deps(), clientId());
        print(clientJson(client), [`Revoked ${client.clientId} ("${client.name}"). Its tokens stopped working at once.`]);
        return 0;
      }
      case 'set-rate-limit': {
        const value = required(args[1], 'N (requests per minute, or "default")');
        const limit = value === 'default' ? null : (positiveInt(value, 'N') ?? null);
        const client = await setRateLimit(deps(), clientId(), limit);
        print(clientJson(client), [`Rate limit of ${client.clientId} is now ${limitText(client)} requests/minute.`]);
        return 0;
      }
      default:
        throw new AdminError(`Unknown command "${command}". Run with --help for the commands.`);
    }
  } catch (error) {
    io.err(`error: ${describe(error)}`);
    return error instanceof AdminError || isUsageError(error) ? 2 : 1;
  }
};

const isUsageError = (error: unknown): boolean =>
  error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS');

const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'ResourceNotFoundException') {
    return `Table ${tableNameFromEnv()} not found. Is the API running (npm start), and DYNAMODB_ENDPOINT/TABLE_NAME set to it?`;
  }
  if ('code' in error && error.code === 'ECONNREFUSED') {
    return `Cannot reach DynamoDB at ${process.env.DYNAMODB_ENDPOINT}. Is npm start running?`;
  }
  if (error.name === 'CredentialsProviderError') {
    return 'No AWS credentials found. Set DYNAMODB_ENDPOINT for a local DynamoDB, or configure AWS credentials for the deployed table.';
  }
  return error.message.split('\n')[0] ?? error.name;
};
