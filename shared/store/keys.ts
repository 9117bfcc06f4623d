/**
 * The key design of the one table: every key and index key the store writes is made here.
 *
 * One table, keys `pk`/`sk`, three overloaded GSIs (see table.ts):
 *
 * | item        | pk                      | sk            | index entries                                                      |
 * |-------------|-------------------------|---------------|--------------------------------------------------------------------|
 * | API client  | `CLIENT#<client_id>`    | `CLIENT`      | gsi3 (keys only): `ORG#<org>#CLIENTS` / `<created_at>#<client_id>`  |
 * | client keys | `CLIENT#<client_id>`    | `JWKS`        | - (private_key_jwt public keys; read only by an assertion)         |
 * | assertion   | `JTI#<sha256(id, jti)>` | `JTI`         | - (a used client assertion's jti; expires_at: TTL, its exp)        |
 * | token       | `TOKEN#<sha256(token)>` | `TOKEN`       | - (stored-format tokens of earlier versions only)                  |
 * | grant       | `GRANT#<sha256(token)>` | `GRANT`       | - (a refresh token's; expires_at: TTL, its expiry)                 |
 * | revocation  | `REVOKED#<id>`          | `REVOKED`     | - (a token id or grant id; expires_at: TTL, when it no longer matters) |
 * | Knap        | `ORG#<org>`             | `KNAP#<uuid>` | gsi1: `CREATOR#<client_id>` / `<created>#<uuid>`                   |
 * |             |                         |               | gsi2 (shared Knaps only): `ORG#<org>#SHARED` / `<created>#<uuid>`  |
 * |             |                         |               | gsi3 (active scheduled only): `DUE#<shard>` / `<next_run_at>#<uuid>`|
 * |             |                         |               | gsi3 (active after-meeting only): `MEETING#CREATOR#<client_id>`   |
 * |             |                         |               |   (private) or `MEETING#ORG#<org>` (shared) / `<created>#<uuid>`   |
 * | idempotency | `IDEM#<client_id>#<key>`| `IDEM`        | - (expires_at: TTL, 24 h)                                          |
 * | run         | `RUN#<run_id>`          | `RUN`         | gsi1: `KNAPRUNS#<uuid>` / `<created_at>#<run_id>` (TTL 90 days)    |
 * |             |                         |               | gsi2: `ORG#<org>#RUNS` / `<created_at>#<run_id>` (admins' listing)  |
 * | run event   | `RUNEVENTS#<run_id>`    | `EVENT#<id, 10 digits>` | - (one per event after `created`; TTL as its run's)  |
 * | report meter| `ORGREPORTS#<org>`      | `<window>`    | - (an organization's run reports per minute; TTL)                  |
 * | stream slots| `STREAMS#<client_id>`   | `STREAMS`     | - (a client's waiting event streams: two leases)                   |
 * | webhook     | `WEBHOOK#<endpoint_id>` | `WEBHOOK`     | gsi3 (keys only): `ORG#<org>#WEBHOOKS` / `<created>#<id>`          |
 * | message     | `MSG#<msg_id>`          | `MSG`         | - (a message other than knap.run; its deliveries: `DLV#<msg_id>`; TTL 90 days) |
 * | delivery    | `DLV#<run_id>`          | `EP#<endpoint_id>` | gsi1 (finally failed only): `EPFAILED#<endpoint_id>` / `<failed_at>#<run_id>` (TTL as its run's) |
 * |             |                         |               | gsi2 (once attempted): `EPDLV#<endpoint_id>` / `<last attempt at>#<run_id>` |
 * | admin       | `ADMIN#<email>`         | `ADMIN`       | - (an organization admin of the local identity provider)          |
 * | admin meter | `ADMINRATE#<org>#<sub>` | `<window>`    | - (an admin's admin-API requests per minute; TTL)                  |
 * | quota       | `QUOTA#<org>`           | `QUOTA`       | - (an organization's counts and own quotas: quota-store.ts)       |
 * | audit event | `ORG#<org>#AUDIT`       | `<at>#<event_id>` | - (expires_at: TTL, 400 days; newest first by Query)           |
 *
 * Access patterns: client by id (GetItem, UpdateItem), clients of an org (gsi3 + BatchGetItem,
 * admin only), token by hash (GetItem), a grant and revocations (BatchGetItem), Knaps a client created (gsi1), Knaps its organization
 * shares (gsi2), both newest first; due Knaps (gsi3, per shard, by next run: the dispatcher
 * never scans), the active after-meeting Knaps a client sees (gsi3: its private ones, then its
 * organization's shared ones; a meeting report reads no other Knap), a Knap's runs (gsi1, newest first), an organization's runs (gsi2, newest first), an organization's webhook endpoints (gsi3).
 *
 * gsi3 holds one entry per item at most, and a Knap's schedule_type decides which: a due entry
 * (scheduled) or a meeting entry (post_meeting_transcription), never both. Every other gsi3
 * query names its own partition (`DUE#`, `ORG#<org>#CLIENTS`, `ORG#<org>#WEBHOOKS`), so the
 * meeting entries are read only by the meeting listing. A Knap has one meeting entry: private
 * ones under their creator, shared ones under their organization, so the listing (creator
 * partition, then organization partition) sees each once. gsi3 projects keys only: the listing
 * reads ~100 bytes per Knap however large the Knap, and a run needs only the Knap's uuid.
 *
 * The due index is sharded by a hash of the Knap's uuid, so that a minute when 100,000 Knaps
 * are due (Monday 09:00) spreads over DUE_SHARDS partitions instead of one.
 *
 * - The client item also carries the rate-limit counter (`rl_window`, `rl_count`) and
 *   `last_used_at`, so one conditional UpdateItem authenticates, meters and stamps a request.
 * - Tokens are sealed (shared/domain/sealed-tokens.ts) and never stored. A refresh token's
 *   grant is a `GRANT#` item named by the token's SHA-256, written by the
 *   client_credentials grant and deleted by revocation. Revoking a token writes one small
 *   `REVOKED#` item per token id or grant id (token ids are 22 characters, grant ids 16, so
 *   the two never meet), read beside the metering write: revocation state never grows an item
 *   that every request reads or writes. Earlier versions set `rv_<id>` marks on the client
 *   item instead; tokens they sealed (version 1) are still checked against them, and
 *   `migrateClientRevocations` moves them out.
 * - Token items (stored format, from earlier versions), grants and revocations carry
 *   `expires_at` (epoch seconds), the table's TTL attribute. TTL only tidies: expiry and the
 *   client's `generation` are checked in code on every use.
 * - A run's events are items of their own, never members of the run item (which stays
 *   bounded): event n is written only while `EVENT#<n>` is free, n being one after the last
 *   event read (a Query of the partition's last item), so ids are dense and in stored order.
 *   Event 1 (`created`) is the run item itself. Each event item carries the chain's state
 *   after it (terminal, reports so far, outcome, report rate), so that read is all a writer needs.
 * - A run's delivery to each endpoint is an item of its own (`DLV#<run_id>`, one per endpoint,
 *   with a ring of its last attempts), never members of the run item: the run stays the same
 *   size whatever the endpoints and attempts. Those that finally failed are listed per
 *   endpoint by gsi1 (sparse), for recovery since a time. Each attempt moves its item in gsi2
 *   under its endpoint (`<at>#<run_id>`), for the endpoint's attempts listing, newest first;
 *   items last attempted by earlier versions are not there.
 * - Every write is a single-item conditional write: no transactions (dynalite has none) and
 *   nothing half-written.
 * - Writes the SDK may send twice (a lost answer) carry a write token, `wt`, in the item they
 *   write: client and webhook creation, the client's metering write, the admin meter. The retry
 *   that finds its own token is taken as applied (shared/domain/credentials.ts, newWriteToken).
 */
import { DUE_SHARDS } from '../domain/due-shards.js';
import type { CursorShape } from './cursor.js';

export const key = {
  client: (clientId: string) => ({ pk: `CLIENT#${clientId}`, sk: 'CLIENT' }),
  /** A client's public keys for private_key_jwt: beside the client item, never on it (no request but an assertion reads them). */
  clientJwks: (clientId: string) => ({ pk: `CLIENT#${clientId}`, sk: 'JWKS' }),
  /** A client assertion's jti, used once (expires_at: TTL, the assertion's exp): sha256 of client id and jti. */
  assertion: (digest: string) => ({ pk: `JTI#${digest}`, sk: 'JTI' }),
  token: (tokenHash: string) => ({ pk: `TOKEN#${tokenHash}`, sk: 'TOKEN' }),
  grant: (grantKey: string) => ({ pk: `GRANT#${grantKey}`, sk: 'GRANT' }),
  /** A revoked token id or grant id (earlier versions wrote only grant ids here). */
  revoked: (id: string) => ({ pk: `REVOKED#${id}`, sk: 'REVOKED' }),
  /** The client item's attribute by which earlier versions revoked a token id or grant id. */
  revocationMark: (id: string) => `rv_${id}`,
  knap: (orgName: string, uuid: string) => ({ pk: `ORG#${orgName}`, sk: `KNAP#${uuid}` }),
  idempotency: (clientId: string, idempotencyKey: string) => ({ pk: `IDEM#${clientId}#${idempotencyKey}`, sk: 'IDEM' }),
  run: (runId: string) => ({ pk: `RUN#${runId}`, sk: 'RUN' }),
  webhook: (endpointId: string) => ({ pk: `WEBHOOK#${endpointId}`, sk: 'WEBHOOK' }),
  delivery: (runId: string, endpointId: string) => ({ pk: `DLV#${runId}`, sk: `EP#${endpointId}` }),
  runDeliveries: (runId: string) => `DLV#${runId}`,
  /** A message other than knap.run (endpoint.disabled, knap.run.failed...): its body, for every attempt. */
  message: (messageId: string) => ({ pk: `MSG#${messageId}`, sk: 'MSG' }),
  /** gsi1: an endpoint's deliveries that finally failed, by when. */
  failedDeliveries: (endpointId: string) => `EPFAILED#${endpointId}`,
  /** gsi2: an endpoint's deliveries, by their last attempt. */
  endpointDeliveries: (endpointId: string) => `EPDLV#${endpointId}`,
  runEvents: (runId: string) => `RUNEVENTS#${runId}`,
  runEvent: (runId: string, id: number) => ({ pk: `RUNEVENTS#${runId}`, sk: `EVENT#${String(id).padStart(10, '0')}` }),
  reportMeter: (orgName: string, window: number) => ({ pk: `ORGREPORTS#${orgName}`, sk: String(window) }),
  streamSlots: (clientId: string) => ({ pk: `STREAMS#${clientId}`, sk: 'STREAMS' }),
  admin: (email: string) => ({ pk: `ADMIN#${email}`, sk: 'ADMIN' }),
  adminMeter: (orgName: string, subject: string, window: number) => ({
    pk: `ADMINRATE#${orgName}#${subject}`,
    sk: String(window),
  }),
  quota: (orgName: string) => ({ pk: `QUOTA#${orgName}`, sk: 'QUOTA' }),
  auditEvent: (orgName: string, at: string, eventId: string) => ({ pk: `ORG#${orgName}#AUDIT`, sk: `${at}#${eventId}` }),
  orgAudit: (orgName: string) => `ORG#${orgName}#AUDIT`,
  knapRuns: (knapUuid: string) => `KNAPRUNS#${knapUuid}`,
  orgRuns: (orgName: string) => `ORG#${orgName}#RUNS`,
  orgWebhooks: (orgName: string) => `ORG#${orgName}#WEBHOOKS`,
  due: (shard: number) => `DUE#${shard}`,
  orgClients: (orgName: string) => `ORG#${orgName}#CLIENTS`,
  creatorKnaps: (clientId: string) => `CREATOR#${clientId}`,
  sharedKnaps: (orgName: string) => `ORG#${orgName}#SHARED`,
  /** The meeting index's partition of a client's private active after-meeting Knaps. */
  creatorMeetingKnaps: (clientId: string) => `MEETING#CREATOR#${clientId}`,
  /** The meeting index's partition of an organization's shared active after-meeting Knaps. */
  orgMeetingKnaps: (orgName: string) => `MEETING#ORG#${orgName}`,
};

/** The LastEvaluatedKey of a Knap index page: the item's keys and the index's, in this partition. */
export const knapIndexCursor = (index: 'gsi1' | 'gsi2', partition: string): CursorShape => ({
  pk: (value) => value.startsWith('ORG#'),
  sk: (value) => value.startsWith('KNAP#'),
  [`${index}pk`]: (value) => value === partition,
  [`${index}sk`]: () => true,
});

/** The LastEvaluatedKey of a page of the meeting index (gsi3, keys only), in this partition. */
export const meetingIndexCursor = (partition: string): CursorShape => ({
  pk: (value) => value.startsWith('ORG#'),
  sk: (value) => value.startsWith('KNAP#'),
  gsi3pk: (value) => value === partition,
  gsi3sk: () => true,
});

/** The due-index shard of a Knap: stable, and even across uuids. */
export const dueShard = (uuid: string): number => Number.parseInt(uuid.replace(/-/g, '').slice(-4), 16) % DUE_SHARDS;

/** The LastEvaluatedKey of a page of a Knap's runs. */
export const runsCursor = (knapUuid: string): CursorShape => ({
  pk: (value) => value.startsWith('RUN#'),
  sk: (value) => value === 'RUN',
  gsi1pk: (value) => value === key.knapRuns(knapUuid),
  gsi1sk: () => true,
});

/** The LastEvaluatedKey of a page of an organization's runs. */
export const orgRunsCursor = (orgName: string): CursorShape => ({
  pk: (value) => value.startsWith('RUN#'),
  sk: (value) => value === 'RUN',
  gsi2pk: (value) => value === key.orgRuns(orgName),
  gsi2sk: () => true,
});

/** The LastEvaluatedKey of a page of an organization's audit events. */
export const auditCursor = (orgName: string): CursorShape => ({
  pk: (value) => value === key.orgAudit(orgName),
  sk: () => true,
});
