import { hashCredential } from '../../shared/domain/credentials.js';
import { createApiClient, setRateLimit } from '../../shared/services/admin-service.js';
import { meterRequest } from '../../shared/services/meter.js';
import { roundTrips } from '../../shared/store/dynamo-client.js';
import { FakeClock } from '../support/clock.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

let table: TestTable;
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(() => table.close());

const newClient = async (clock: FakeClock, rateLimit = 100) => {
  const deps = table.deps(clock);
  const client = await createApiClient(deps, { orgName: 'acme', name: 'meter', rateLimit });
  return { deps, client, guard: { secretHash: hashCredential(client.clientSecret) } };
};

describe('per-client rate limit (atomic counter on the client item)', () => {
  test('40 simultaneous requests against 20 remaining: exactly 20 pass', async () => {
    const clock = new FakeClock(new Date('2026-11-23T10:00:10Z'));
    const { deps, client, guard } = await newClient(clock, 30);
    for (let i = 0; i < 10; i += 1) expect((await meterRequest(deps, client.clientId, guard)).kind).toBe('ok');

    const outcomes = await Promise.all(Array.from({ length: 40 }, () => meterRequest(deps, client.clientId, guard)));

    const kinds = outcomes.map((outcome) => outcome.kind);
    expect(kinds.filter((kind) => kind === 'ok')).toHaveLength(20);
    expect(kinds.filter((kind) => kind === 'limited')).toHaveLength(20);
    const remaining = outcomes.flatMap((outcome) => (outcome.kind === 'ok' ? [outcome.rate.remaining] : []));
    expect(new Set(remaining)).toEqual(new Set(Array.from({ length: 20 }, (_, i) => i)));
  });

  test('a new window starts the count again, and the limit can change at once', async () => {
    const clock = new FakeClock(new Date('2026-11-23T10:00:50Z'));
    const { deps, client, guard } = await newClient(clock, 2);
    expect((await meterRequest(deps, client.clientId, guard)).kind).toBe('ok');
    expect((await meterRequest(deps, client.clientId, guard)).kind).toBe('ok');
    const limited = await meterRequest(deps, client.clientId, guard);
    expect(limited).toMatchObject({ kind: 'limited', rate: { limit: 2, remaining: 0, resetSeconds: 10 } });

    clock.advance(10); // 10:01:00, a new window
    expect(await meterRequest(deps, client.clientId, guard)).toMatchObject({
      kind: 'ok',
      rate: { remaining: 1, resetSeconds: 60 },
    });

    await setRateLimit(deps, client.clientId, 5);
    expect(await meterRequest(deps, client.clientId, guard)).toMatchObject({ kind: 'ok', rate: { limit: 5, remaining: 3 } });
  });

  test('a client without a limit of its own follows the deployment default, exactly under a burst', async () => {
    const clock = new FakeClock(new Date('2026-11-23T10:00:10Z'));
    const deps = { ...table.deps(clock), defaultRateLimit: 12 };
    const client = await createApiClient(deps, { orgName: 'acme', name: 'default limit' });
    expect(client.rateLimit).toBeNull();
    const guard = { secretHash: hashCredential(client.clientSecret) };
    expect(await meterRequest(deps, client.clientId, guard)).toMatchObject({ kind: 'ok', rate: { limit: 12, remaining: 11 } });

    const outcomes = await Promise.all(Array.from({ length: 20 }, () => meterRequest(deps, client.clientId, guard)));
    expect(outcomes.filter((outcome) => outcome.kind === 'ok')).toHaveLength(11);
    expect(outcomes.find((outcome) => outcome.kind === 'limited')).toMatchObject({ rate: { limit: 12, remaining: 0 } });

    // An own limit overrides the default; "default" again removes it.
    await setRateLimit(deps, client.clientId, 15);
    expect(await meterRequest(deps, client.clientId, guard)).toMatchObject({ kind: 'ok', rate: { limit: 15, remaining: 2 } });
    expect((await setRateLimit(deps, client.clientId, null)).rateLimit).toBeNull();
    expect(await meterRequest(deps, client.clientId, guard)).toMatchObject({ kind: 'limited', rate: { limit: 12 } });
  });

  test('one write per request; a change of limit kind costs one refused write, once', async () => {
    const clock = new FakeClock(new Date('2026-11-23T10:00:10Z'));
    const { deps, client, guard } = await newClient(clock, 50);
    await meterRequest(deps, client.clientId, guard); // opens the window
    roundTrips.reset();
    expect(await meterRequest(deps, client.clientId, guard)).toMatchObject({ kind: 'ok', rate: { limit: 50 } });
    expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 1 });

    await setRateLimit(deps, client.clientId, null); // now follows the default (100)
    roundTrips.reset();
    expect(await meterRequest(deps, client.clientId, guard)).toMatchObject({ kind: 'ok', rate: { limit: 100, remaining: 97 } });
    // DynamoDB hands the item back with the refusal; dynalite does not, hence at most one read.
    expect(roundTrips.byCommand.UpdateItemCommand).toBe(2);
    expect(roundTrips.byCommand.GetItemCommand ?? 0).toBeLessThanOrEqual(1);
    roundTrips.reset();
    expect(await meterRequest(deps, client.clientId, guard)).toMatchObject({ kind: 'ok', rate: { remaining: 96 } });
    expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 1 });
  });

  test('a wrong secret never burns the client quota', async () => {
    const clock = new FakeClock();
    const { deps, client, guard } = await newClient(clock, 1);
    for (let i = 0; i < 5; i += 1) {
      expect((await meterRequest(deps, client.clientId, { secretHash: hashCredential('wrong') })).kind).toBe('mismatch');
    }
    expect((await meterRequest(deps, client.clientId, guard)).kind).toBe('ok');
  });

  test('an unknown client id is refused without a count', async () => {
    const deps = table.deps(new FakeClock());
    expect(await meterRequest(deps, 'knap_ci_nope', { secretHash: hashCredential('x') })).toEqual({ kind: 'unknown' });
  });

  test('steady state costs one DynamoDB round trip, a window roll-over at most two more', async () => {
    const clock = new FakeClock(new Date('2026-11-23T10:00:01Z'));
    const { deps, client, guard } = await newClient(clock);
    await meterRequest(deps, client.clientId, guard);

    roundTrips.reset();
    await meterRequest(deps, client.clientId, guard);
    expect(roundTrips.total).toBe(1);

    clock.advance(60);
    roundTrips.reset();
    await meterRequest(deps, client.clientId, guard);
    expect(roundTrips.total).toBeLessThanOrEqual(3);
  });
});
