/**
 * Recovery (issue 44): every knap.run whose delivery to an endpoint finally failed at or after
 * `since` is sent to that endpoint again, with the same webhook-id, a page at a time through
 * the queue; nothing before `since`, nothing to another endpoint; another organization's
 * endpoint is a 404 and a bad `since` a 400. Audited as webhook.recover.
 */
import { newEndpointId, newWebhookSecret, type WebhookEndpoint } from '../../shared/domain/webhooks.js';
import { ApiError } from '../../shared/errors.js';
import { parseRecoverWebhook } from '../../shared/schemas/webhook-recovery.js';
import { RECOVERY_PAGE_SIZE, recoverOrgWebhook } from '../../shared/services/webhook-recovery.js';
import { RETRY_POLICY } from '../../shared/webhooks/retry.js';
import { FakeClock } from '../support/clock.js';
import {
  deliverWith,
  OWNER,
  putPendingRun,
  putTestKnap,
  type Receiver,
  startReceiver,
  waitFor,
  waitForRunStatus,
} from '../support/deliveries.js';
import { tableForFile } from '../support/dynamo.js';

const file = tableForFile();

let orgs = 0;

const setup = async () => {
  const clock = new FakeClock();
  const deps = file.table.deps(clock);
  // D far away: these failures never disable the endpoint here.
  const queue = deliverWith(deps, { settings: { retry: { ...RETRY_POLICY, maxAttempts: 1 }, disableAfterSeconds: 1e9 } });
  file.cleanup(() => queue.close());
  const orgName = `recover-org-${++orgs}`;
  const knap = await putTestKnap(deps.repo, { ...OWNER, orgName });
  const endpointFor = async (target: Receiver): Promise<WebhookEndpoint> => {
    const endpoint: WebhookEndpoint = {
      endpointId: newEndpointId(),
      orgName,
      url: target.url,
      secret: newWebhookSecret(),
      createdAt: clock.now().toISOString(),
      eventTypes: ['knap.run'],
    };
    await deps.repo.putWebhookEndpoint(endpoint);
    return endpoint;
  };
  const failedRun = async (): Promise<string> => {
    const made = await putPendingRun(deps.repo, knap.uuid, orgName);
    await deps.deliveries.enqueue(made.run_id, 0);
    await waitForRunStatus(deps.repo, made.run_id, 'failed');
    return made.run_id;
  };
  const admin = { orgName, actor: { name: 'ada@example.com', sourceIp: '192.0.2.1' } };
  return { clock, deps, orgName, admin, endpointFor, failedRun };
};

describe('recover', () => {
  test('every run that failed at the endpoint since then, and only those, again with the same webhook-id, over several pages', async () => {
    const { clock, deps, orgName, admin, endpointFor, failedRun } = await setup();
    let up = false;
    const receiver = await startReceiver(() => ({ status: up ? 204 : 500 }));
    file.cleanup(() => receiver.close());
    const healthy = await startReceiver();
    file.cleanup(() => healthy.close());
    const endpoint = await endpointFor(receiver);

    const before = await failedRun();
    clock.advance(3600);
    const since = clock.now().toISOString();
    const after: string[] = [];
    for (let n = 0; n < RECOVERY_PAGE_SIZE + 2; n++) {
      after.push(await failedRun());
      clock.advance(60);
    }
    // The receiver is back; an endpoint added since has nothing to recover.
    up = true;
    receiver.received.length = 0;
    const other = await endpointFor(healthy);

    const answer = await recoverOrgWebhook(deps, admin, endpoint.endpointId, parseRecoverWebhook({ since }));
    expect(answer).toEqual({ endpoint_id: endpoint.endpointId, since: since.replace(/\.\d{3}Z$/, 'Z') });

    for (const runId of after) await waitForRunStatus(deps.repo, runId, 'delivered');
    const ids = receiver.received.map((request) => request.headers['webhook-id']);
    expect([...ids].sort()).toEqual([...after].sort());
    expect(ids).not.toContain(before);
    expect((await deps.repo.getRun(before))?.run.status).toBe('failed');
    expect(healthy.received).toHaveLength(0);
    void other;

    const audit = await deps.repo.listAuditEvents(orgName, { limit: 10 });
    expect(audit.events).toEqual([
      expect.objectContaining({
        actor: 'ada@example.com',
        action: 'webhook.recover',
        target: { type: 'webhook', id: endpoint.endpointId },
      }),
    ]);
    // Delivered now, out of the endpoint's failed index: recovering again sends nothing.
    await recoverOrgWebhook(deps, admin, endpoint.endpointId, parseRecoverWebhook({ since }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await waitFor('the queue to be quiet', () => (receiver.received.length === after.length ? true : undefined));
    expect(receiver.received).toHaveLength(after.length);
  });

  test("another organization's endpoint is a 404; a bad since a 400", async () => {
    const { deps, admin, endpointFor } = await setup();
    const receiver = await startReceiver();
    file.cleanup(() => receiver.close());
    const endpoint = await endpointFor(receiver);
    const stranger = { ...admin, orgName: 'someone-else' };
    await expect(recoverOrgWebhook(deps, stranger, endpoint.endpointId, { since: '2026-11-01T00:00:00Z' })).rejects.toMatchObject(
      { status: 404 },
    );
    await expect(recoverOrgWebhook(deps, admin, 'we_nope', { since: '2026-11-01T00:00:00Z' })).rejects.toMatchObject({
      status: 404,
    });
    for (const body of [
      { since: 'yesterday' },
      { since: '2026-13-45T99:00:00Z' },
      {},
      { since: 5 },
      { since: '2026-11-01T00:00:00Z', x: 1 },
    ]) {
      expect(() => parseRecoverWebhook(body)).toThrow(ApiError);
    }
  });
});
