/** Admins and the audit log (shared/store/admin-store.ts) on a real local DynamoDB. */
import { newAdmin } from '../../shared/domain/admins.js';
import { AUDIT_RETENTION_SECONDS, auditEvent, CLI_ACTOR } from '../../shared/domain/audit.js';
import { InvalidCursorError } from '../../shared/domain/repository.js';
import { key } from '../../shared/store/keys.js';
import { FakeClock } from '../support/clock.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

let table: TestTable;
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(() => table.close());

test('an admin is made once per e-mail, and kept with its hash only', async () => {
  const clock = new FakeClock();
  const { repo } = table.deps(clock);
  const admin = await newAdmin({ email: 'ada@example.com', orgName: 'acme', password: 'a long enough password' }, clock);
  expect(await repo.putNewAdmin(admin)).toBe(true);
  expect(await repo.putNewAdmin({ ...admin, orgName: 'umbrella' })).toBe(false);
  expect(await repo.getAdmin('ada@example.com')).toEqual(admin);
  expect(JSON.stringify(await table.item(key.admin('ada@example.com')))).not.toContain('a long enough password');
  expect(await repo.getAdmin('nobody@example.com')).toBeNull();
});

test("an organization's audit events: newest first, in pages, kept a year and more, other organizations apart", async () => {
  const clock = new FakeClock(new Date('2026-11-25T10:00:00Z'));
  const { repo } = table.deps(clock);
  const made = [];
  for (let index = 0; index < 5; index += 1) {
    const event = auditEvent(CLI_ACTOR, 'audited', 'client.create', { type: 'client', id: `knap_ci_${index}` }, clock);
    await repo.putAuditEvent(event);
    made.push(event);
    clock.advance(1);
  }
  await repo.putAuditEvent(auditEvent(CLI_ACTOR, 'elsewhere', 'client.revoke', { type: 'client', id: 'x' }, clock));
  const first = await repo.listAuditEvents('audited', { limit: 3 });
  expect(first.events).toEqual(made.slice(2).reverse());
  const second = await repo.listAuditEvents('audited', { limit: 3, cursor: first.next ?? undefined });
  expect(second.events).toEqual(made.slice(0, 2).reverse());
  await expect(repo.listAuditEvents('elsewhere', { limit: 3, cursor: first.next ?? undefined })).rejects.toThrow(
    InvalidCursorError,
  );
  const stored = await table.item(key.auditEvent('audited', made[0]!.at, made[0]!.eventId));
  expect(stored?.expires_at).toBe(Date.parse(made[0]!.at) / 1000 + AUDIT_RETENTION_SECONDS);
  expect(AUDIT_RETENTION_SECONDS).toBeGreaterThan(365 * 24 * 3600);
});
