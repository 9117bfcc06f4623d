/**
 * Secret rotation and test sends (issue 44): after a rotation every message carries two `v1,`
 * signatures for 24 hours, so a receiver holding either secret verifies it (with the
 * `standardwebhooks` library); after that only the new secret signs. A test send reaches an
 * endpoint now, disabled or not, and answers what the attempt did without quoting the URL's
 * path or query.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { newEndpointId, newWebhookSecret, type WebhookEndpoint } from '../../shared/domain/webhooks.js';
import { ApiError } from '../../shared/errors.js';
import { rotateOrgWebhookSecret } from '../../shared/services/org-webhook-secret.js';
import { testOrgWebhook, testSendOptions } from '../../shared/services/org-webhook-test.js';
import type { OrgAdmin } from '../../shared/services/request-state.js';
import { summarizeWebhook } from '../../shared/services/webhook-admin.js';
import { key } from '../../shared/store/keys.js';
import { RETRY_POLICY } from '../../shared/webhooks/retry.js';
import { FakeClock } from '../support/clock.js';
import {
  type Answer,
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
const newAdmin = (): OrgAdmin => ({ orgName: `rotation-org-${++orgs}`, actor: { name: 'ada@example.com', sourceIp: null } });

/** Standard Webhooks verification checks the timestamp against the real time: the fake clock starts there. */
const setup = () => {
  const clock = new FakeClock(new Date());
  const deps = file.table.deps(clock);
  const queue = deliverWith(deps, { settings: { retry: { ...RETRY_POLICY, maxAttempts: 1 } } });
  file.cleanup(() => queue.close());
  return { clock, deps, repo: deps.repo };
};

const receiver = async (answer?: (n: number) => Answer): Promise<Receiver> => {
  const started = await startReceiver(answer);
  file.cleanup(() => started.close());
  return started;
};

const putEndpoint = async (
  repo: ReturnType<typeof setup>['repo'],
  orgName: string,
  url: string,
  more: Partial<WebhookEndpoint> = {},
): Promise<WebhookEndpoint> => {
  const endpoint: WebhookEndpoint = {
    endpointId: newEndpointId(),
    orgName,
    url,
    secret: newWebhookSecret(),
    createdAt: new Date().toISOString(),
    eventTypes: null,
    ...more,
  };
  await repo.putWebhookEndpoint(endpoint);
  return endpoint;
};

const verifies = (secret: string, message: Receiver['received'][number]): boolean => {
  try {
    new Webhook(secret).verify(message.body, message.headers as Record<string, string>);
    return true;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return false;
    throw error;
  }
};

const signatures = (message: Receiver['received'][number]): string[] => String(message.headers['webhook-signature']).split(' ');

const localOptions = { ...testSendOptions({}), allowLocalhost: true };
const answerIn = (ms: number) => Date.now() + ms;

/** Delivers a new run of `orgName` and returns what the receiver got. */
const deliverRun = async (
  deps: ReturnType<typeof setup>['deps'],
  orgName: string,
  target: Receiver,
): Promise<Receiver['received'][number]> => {
  const knap = await putTestKnap(deps.repo, { ...OWNER, orgName });
  const run = await putPendingRun(deps.repo, knap.uuid, orgName);
  const before = target.received.length;
  await deps.deliveries.enqueue(run.run_id, 0);
  await waitForRunStatus(deps.repo, run.run_id, 'delivered');
  return waitFor('the knap.run message', () => target.received[before]);
};

describe('secret rotation', () => {
  test('for 24 hours each message carries two v1 signatures, and either secret verifies it', async () => {
    const { deps, repo } = setup();
    const admin = newAdmin();
    const target = await receiver();
    const endpoint = await putEndpoint(repo, admin.orgName, target.url);

    const { secret } = await rotateOrgWebhookSecret(deps, admin, endpoint.endpointId);

    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secret).not.toBe(endpoint.secret);
    const stored = await file.table.item(key.webhook(endpoint.endpointId));
    expect(stored).toMatchObject({
      secret,
      previous_secret: endpoint.secret,
      previous_secret_expires_at: new Date(deps.clock.now().getTime() + 24 * 3600 * 1000).toISOString(),
    });
    // Neither secret is in what the CLI lists.
    const listed = JSON.stringify((await repo.listWebhookEndpoints(admin.orgName)).map(summarizeWebhook));
    expect(listed).not.toContain(secret);
    expect(listed).not.toContain(endpoint.secret);

    const message = await deliverRun(deps, admin.orgName, target);
    expect(signatures(message)).toHaveLength(2);
    for (const signature of signatures(message)) expect(signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verifies(secret, message)).toBe(true);
    expect(verifies(endpoint.secret, message)).toBe(true);
    expect(verifies(newWebhookSecret(), message)).toBe(false);

    // A test send is signed the same way.
    const tested = await testOrgWebhook(deps, admin, endpoint.endpointId, answerIn(8_000), localOptions);
    expect(tested.error).toBeNull();
    const testMessage = target.received.at(-1) as Receiver['received'][number];
    expect(signatures(testMessage)).toHaveLength(2);
    expect(verifies(secret, testMessage) && verifies(endpoint.secret, testMessage)).toBe(true);

    const events = await repo.listAuditEvents(admin.orgName, { limit: 10 });
    expect(events.events.map((event) => [event.action, event.target.id])).toEqual(
      expect.arrayContaining([['webhook.rotate_secret', endpoint.endpointId]]),
    );
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  test('after 24 hours only the new secret signs', async () => {
    const { clock, deps, repo } = setup();
    const admin = newAdmin();
    const target = await receiver();
    const endpoint = await putEndpoint(repo, admin.orgName, target.url);
    // Rotated 24 hours and a second ago (verification wants the message's time near the real one).
    const now = clock.now();
    clock.set(new Date(now.getTime() - (24 * 3600 + 1) * 1000));
    const { secret } = await rotateOrgWebhookSecret(deps, admin, endpoint.endpointId);
    clock.set(now);

    const message = await deliverRun(deps, admin.orgName, target);
    expect(signatures(message)).toHaveLength(1);
    expect(verifies(secret, message)).toBe(true);
    expect(verifies(endpoint.secret, message)).toBe(false);
  });

  test('rotating again within the overlap keeps the secret it replaces, not the oldest', async () => {
    const { deps, repo } = setup();
    const admin = newAdmin();
    const target = await receiver();
    const endpoint = await putEndpoint(repo, admin.orgName, target.url);
    const first = await rotateOrgWebhookSecret(deps, admin, endpoint.endpointId);
    const second = await rotateOrgWebhookSecret(deps, admin, endpoint.endpointId);

    const message = await deliverRun(deps, admin.orgName, target);
    expect(verifies(second.secret, message)).toBe(true);
    expect(verifies(first.secret, message)).toBe(true);
    expect(verifies(endpoint.secret, message)).toBe(false);
  });

  test("another organization's endpoint is a 404 and keeps its secret", async () => {
    const { deps, repo } = setup();
    const owner = newAdmin();
    const stranger = newAdmin();
    const endpoint = await putEndpoint(repo, owner.orgName, 'https://hooks.example.com/knap');

    const rotating = rotateOrgWebhookSecret(deps, stranger, endpoint.endpointId);
    await expect(rotating).rejects.toBeInstanceOf(ApiError);
    await expect(rotating).rejects.toMatchObject({ status: 404 });
    await expect(rotateOrgWebhookSecret(deps, stranger, newEndpointId())).rejects.toMatchObject({ status: 404 });
    const stored = await repo.getWebhookEndpoint(endpoint.endpointId);
    expect(stored?.secret).toBe(endpoint.secret);
    expect(stored?.previousSecret).toBeNull();
  });
});

describe('test send', () => {
  test('a disabled endpoint gets a signed webhook.test with its own msg_ id, and the attempt is answered', async () => {
    const { deps, repo } = setup();
    const admin = newAdmin();
    const target = await receiver(() => ({ status: 204 }));
    const endpoint = await putEndpoint(repo, admin.orgName, target.url, { disabled: true, disabledAt: new Date().toISOString() });

    const result = await testOrgWebhook(deps, admin, endpoint.endpointId, answerIn(8_000), localOptions);

    expect(result).toEqual({ response_status: 204, duration_ms: expect.any(Number), error: null });
    expect(target.received).toHaveLength(1);
    const [message] = target.received as [Receiver['received'][number]];
    expect(message.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{32}$/);
    expect(verifies(endpoint.secret, message)).toBe(true);
    expect(JSON.parse(message.body)).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { endpoint_id: endpoint.endpointId },
    });
    const events = await repo.listAuditEvents(admin.orgName, { limit: 10 });
    expect(events.events.map((event) => event.action)).toContain('webhook.test');
  });

  test("a failure is reported without the URL's path or query", async () => {
    const { deps, repo } = setup();
    const admin = newAdmin();
    const target = await receiver(() => ({ status: 500, body: 'nope' }));
    const endpoint = await putEndpoint(
      repo,
      admin.orgName,
      `${target.url.replace('/hooks/knap', '')}/T0001/B0002/s3cr3tPath?token=s3cr3tQuery`,
    );

    const result = await testOrgWebhook(deps, admin, endpoint.endpointId, answerIn(8_000), localOptions);

    expect(result.response_status).toBe(500);
    expect(result.error).toMatch(/^HTTP 500 from http:\/\/127\.0\.0\.1:\d+$/);
    expect(JSON.stringify(result)).not.toMatch(/s3cr3t|T0001/);
    expect(JSON.stringify(deps.log.lines)).not.toMatch(/s3cr3t|T0001/);
  });

  test("an endpoint that never answers is given up on before the request's deadline", async () => {
    const { deps, repo } = setup();
    const admin = newAdmin();
    const target = await receiver(() => 'hang');
    const endpoint = await putEndpoint(repo, admin.orgName, target.url);

    const started = Date.now();
    // 1.5 s of the 3 s are kept for the audit write and the answer: the send gets about 1.5 s, not 10.
    const result = await testOrgWebhook(deps, admin, endpoint.endpointId, answerIn(3_000), localOptions);

    expect(result.response_status).toBeNull();
    expect(result.error).toMatch(/^timed out after [\d.]+ s \(http:\/\/127\.0\.0\.1:\d+\)$/);
    expect(Date.now() - started).toBeLessThan(9_000);
  });

  test("another organization's endpoint is a 404 and gets nothing", async () => {
    const { deps, repo } = setup();
    const owner = newAdmin();
    const target = await receiver();
    const endpoint = await putEndpoint(repo, owner.orgName, target.url);

    await expect(testOrgWebhook(deps, newAdmin(), endpoint.endpointId, answerIn(8_000), localOptions)).rejects.toMatchObject({
      status: 404,
    });
    expect(target.received).toHaveLength(0);
  });
});
