/**
 * Automatic disabling (issue 44): an endpoint whose last 10 messages all finally failed, the
 * first of them at least D ago, is disabled, audited as `system`, and announced as
 * `endpoint.disabled` to the organization's other endpoints; then it receives nothing more.
 * On the fake clock: D is 5 days here, as deployed.
 */

import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { newEndpointId, newWebhookSecret, type WebhookEndpoint, type WebhookEventType } from '../../shared/domain/webhooks.js';
import { noteEndpointOutcome } from '../../shared/services/endpoint-health.js';
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

const DAY = 24 * 3600;

const file = tableForFile();

let orgs = 0;

const setup = async (disableAfterSeconds = 5 * DAY) => {
  const clock = new FakeClock();
  const deps = file.table.deps(clock);
  // One attempt each: every run's delivery to a failing endpoint fails finally at once.
  const queue = deliverWith(deps, { settings: { retry: { ...RETRY_POLICY, maxAttempts: 1 }, disableAfterSeconds } });
  file.cleanup(() => queue.close());
  const orgName = `disable-org-${++orgs}`;
  const knap = await putTestKnap(deps.repo, { ...OWNER, orgName });
  const receiver = async (answer?: (n: number) => Answer): Promise<Receiver> => {
    const started = await startReceiver(answer);
    file.cleanup(() => started.close());
    return started;
  };
  const endpointFor = async (target: Receiver, eventTypes: WebhookEventType[] | null, path = ''): Promise<WebhookEndpoint> => {
    const endpoint: WebhookEndpoint = {
      endpointId: newEndpointId(),
      orgName,
      url: `${target.url}${path}`,
      secret: newWebhookSecret(),
      createdAt: clock.now().toISOString(),
      eventTypes,
    };
    await deps.repo.putWebhookEndpoint(endpoint);
    return endpoint;
  };
  /** One run, delivered (or not) to its end. */
  const run = async (status: 'delivered' | 'failed' | 'no_endpoint') => {
    const made = await putPendingRun(deps.repo, knap.uuid, orgName);
    await deps.deliveries.enqueue(made.run_id, 0);
    await waitForRunStatus(deps.repo, made.run_id, status);
  };
  return { clock, deps, orgName, receiver, endpointFor, run };
};

describe('automatic disabling', () => {
  test('10 final failures disable the endpoint only once the first is D old; audited as system, announced to the others', async () => {
    const { clock, deps, orgName, receiver, endpointFor, run } = await setup();
    const failing = await receiver(() => ({ status: 500 }));
    const watcher = await receiver();
    // Its path holds a secret, as Slack's and Discord's do: never in the announcement.
    const broken = await endpointFor(failing, ['knap.run'], '/hooks/T000/SECRET-PATH?token=abc');
    const watching = await endpointFor(watcher, ['endpoint.disabled']);

    for (let n = 0; n < 10; n++) {
      await run('failed');
      clock.advance(3600);
    }
    // Ten in a row, but the first only 10 hours ago: still enabled.
    let stored = await deps.repo.getWebhookEndpoint(broken.endpointId);
    expect(stored).toMatchObject({ disabled: false, failStreak: 10 });

    clock.advance(5 * DAY);
    await run('failed');
    stored = await deps.repo.getWebhookEndpoint(broken.endpointId);
    expect(stored).toMatchObject({
      disabled: true,
      disabledAt: clock
        .now()
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z'),
    });

    const audit = await deps.repo.listAuditEvents(orgName, { limit: 10 });
    expect(audit.events).toEqual([
      expect.objectContaining({
        actor: 'system',
        action: 'webhook.auto_disable',
        target: { type: 'webhook', id: broken.endpointId },
      }),
    ]);

    const [message] = await waitFor('the endpoint.disabled message', () =>
      watcher.received.length > 0 ? watcher.received : undefined,
    );
    expect(message?.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{32}$/);
    // Signed by the watcher's secret (at the fake clock's time, hence the timestamp checked by hand).
    const headers = (message?.headers ?? {}) as Record<string, string>;
    const signature = new Webhook(watching.secret).sign(
      headers['webhook-id'] as string,
      new Date(Number(headers['webhook-timestamp']) * 1000),
      message?.body ?? '',
    );
    expect(headers['webhook-signature']).toContain(signature);
    const payload = JSON.parse(message?.body ?? '{}') as { type: string; data: Record<string, unknown> };
    expect(payload.type).toBe('endpoint.disabled');
    expect(payload.data).toEqual({ endpoint_id: broken.endpointId, url: new URL(failing.url).origin });
    expect(message?.body).not.toContain('SECRET-PATH');
    expect(message?.body).not.toContain('token=abc');

    // Disabled: it gets nothing more (the run has no endpoint left that takes it).
    const before = failing.received.length;
    await run('no_endpoint');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(failing.received).toHaveLength(before);
    expect(watcher.received).toHaveLength(1);
  });

  test('a success in between ends the streak', async () => {
    const { clock, deps, receiver, endpointFor, run } = await setup();
    let answer = 500;
    const flaky = await receiver(() => ({ status: answer }));
    const endpoint = await endpointFor(flaky, ['knap.run']);

    for (let n = 0; n < 9; n++) await run('failed');
    answer = 204;
    await run('delivered');
    expect(await deps.repo.getWebhookEndpoint(endpoint.endpointId)).toMatchObject({ failStreak: 0, recentFailures: [] });
    answer = 500;
    clock.advance(6 * DAY);
    for (let n = 0; n < 9; n++) {
      await run('failed');
      clock.advance(DAY);
    }
    // Nine in a row over 9 days: not ten.
    expect(await deps.repo.getWebhookEndpoint(endpoint.endpointId)).toMatchObject({ disabled: false, failStreak: 9 });
  });

  test('with D = 0 (npm start) the tenth final failure disables at once, and only once', async () => {
    const { deps, orgName, receiver, endpointFor, run } = await setup(0);
    const failing = await receiver(() => ({ status: 503 }));
    const endpoint = await endpointFor(failing, ['knap.run']);
    for (let n = 0; n < 9; n++) await run('failed');
    expect(await deps.repo.getWebhookEndpoint(endpoint.endpointId)).toMatchObject({ disabled: false });
    await run('failed');
    expect(await deps.repo.getWebhookEndpoint(endpoint.endpointId)).toMatchObject({ disabled: true, failStreak: 0 });
    expect(failing.received).toHaveLength(10);
    const audit = await deps.repo.listAuditEvents(orgName, { limit: 10 });
    expect(audit.events.map((event) => event.action)).toEqual(['webhook.auto_disable']);
  });

  test('exactly 10 final failures, the first of them D old: the tenth disables, audited as system, announced', async () => {
    const { clock, deps, orgName, receiver, endpointFor, run } = await setup();
    const failing = await receiver(() => ({ status: 500 }));
    const watcher = await receiver();
    const broken = await endpointFor(failing, ['knap.run']);
    await endpointFor(watcher, ['endpoint.disabled']);
    await run('failed');
    clock.advance(5 * DAY);
    for (let n = 0; n < 8; n++) await run('failed');
    expect(await deps.repo.getWebhookEndpoint(broken.endpointId)).toMatchObject({ disabled: false, failStreak: 9 });
    await run('failed');
    expect(await deps.repo.getWebhookEndpoint(broken.endpointId)).toMatchObject({
      disabled: true,
      failStreak: 0,
      recentFailures: [],
    });
    const audit = await deps.repo.listAuditEvents(orgName, { limit: 10 });
    expect(audit.events).toEqual([expect.objectContaining({ actor: 'system', action: 'webhook.auto_disable' })]);
    const [message] = await waitFor('the endpoint.disabled message', () =>
      watcher.received.length > 0 ? watcher.received : undefined,
    );
    expect(JSON.parse(message?.body ?? '{}')).toMatchObject({
      type: 'endpoint.disabled',
      data: { endpoint_id: broken.endpointId },
    });
  });

  test('a streak of 15 that began 6 days ago but whose 6th failure is an hour old is not disabled (D = 5 days)', async () => {
    const { clock, deps, receiver, endpointFor, run } = await setup();
    const failing = await receiver(() => ({ status: 500 }));
    const endpoint = await endpointFor(failing, ['knap.run']);
    // Deliveries cannot reach this state under the rule (its 10th failure, with the 1st 6 days
    // old, would have disabled it), so it is planted: 14 failures, the first 5 six days ago,
    // the 6th to 14th in the last hour; the record holds the last 10 of them (the 5th on).
    const now = clock.now().getTime();
    const at = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const old = now - 6 * DAY * 1000;
    const recent = Array.from({ length: 9 }, (_, n) => at(now - 3600 * 1000 + n * 60 * 1000));
    await file.table.documents.send(
      new UpdateCommand({
        TableName: file.table.tableName,
        Key: key.webhook(endpoint.endpointId),
        UpdateExpression: 'SET fail_streak = :streak, fail_streak_since = :since, recent_failures = :recent, fail_rev = :rev',
        ExpressionAttributeValues: {
          ':streak': 14,
          ':since': at(old),
          ':recent': [at(old + 4 * 60 * 1000), ...recent],
          ':rev': 'planted',
        },
      }),
    );
    clock.advance(30 * 60);
    await run('failed');
    // The streak is 15 and began 6 days ago, but the first of its last 10 (the 6th) is an hour old.
    const stored = await deps.repo.getWebhookEndpoint(endpoint.endpointId);
    expect(stored).toMatchObject({ disabled: false, failStreak: 15, failStreakSince: at(old) });
    expect(stored?.recentFailures).toEqual([...recent, at(clock.now().getTime())]);
  });

  test('a streak longer than 10 is judged by its last 10, through deliveries: the first D old is not enough', async () => {
    const { clock, deps, receiver, endpointFor, run } = await setup();
    const failing = await receiver(() => ({ status: 500 }));
    const endpoint = await endpointFor(failing, ['knap.run']);
    await run('failed');
    clock.advance(2 * DAY);
    for (let n = 0; n < 9; n++) await run('failed');
    // Ten, the first 2 days old: kept.
    expect(await deps.repo.getWebhookEndpoint(endpoint.endpointId)).toMatchObject({ disabled: false, failStreak: 10 });
    clock.advance(4 * DAY);
    await run('failed');
    // The streak began 6 days ago, but the first of the last 10 (the 2nd) is 4 days old: kept.
    expect(await deps.repo.getWebhookEndpoint(endpoint.endpointId)).toMatchObject({ disabled: false, failStreak: 11 });
    clock.advance(DAY);
    await run('failed');
    // Now the first of the last 10 (the 3rd) is 5 days old: disabled.
    expect(await deps.repo.getWebhookEndpoint(endpoint.endpointId)).toMatchObject({ disabled: true });
  });

  test('final failures landing together are each counted once; the record stays at 10 times', async () => {
    const { deps, receiver, endpointFor } = await setup();
    const failing = await receiver(() => ({ status: 500 }));
    const endpoint = await endpointFor(failing, ['knap.run']);
    // Twelve deliveries that read the endpoint before any of them failed, finishing at once.
    await Promise.all(Array.from({ length: 12 }, () => noteEndpointOutcome(deps, endpoint, 'failed', 5 * DAY)));
    const stored = await deps.repo.getWebhookEndpoint(endpoint.endpointId);
    expect(stored).toMatchObject({ disabled: false, failStreak: 12 });
    expect(stored?.recentFailures).toHaveLength(10);
  });

  describe('endpoints whose streak an earlier version counted (fail_streak and its start, no times)', () => {
    const plantOldStreak = async (endpoint: WebhookEndpoint, streak: number, since: Date) => {
      await file.table.documents.send(
        new UpdateCommand({
          TableName: file.table.tableName,
          Key: key.webhook(endpoint.endpointId),
          UpdateExpression: 'SET fail_streak = :streak, fail_streak_since = :since',
          ExpressionAttributeValues: { ':streak': streak, ':since': since.toISOString().replace(/\.\d{3}Z$/, 'Z') },
        }),
      );
    };

    test('9 of them, the first 6 days old: the tenth disables (its start is the first of the last 10)', async () => {
      const { clock, deps, receiver, endpointFor, run } = await setup();
      const failing = await receiver(() => ({ status: 500 }));
      const endpoint = await endpointFor(failing, ['knap.run']);
      await plantOldStreak(endpoint, 9, new Date(clock.now().getTime() - 6 * DAY * 1000));
      await run('failed');
      expect(await deps.repo.getWebhookEndpoint(endpoint.endpointId)).toMatchObject({ disabled: true });
    });

    test('12 of them, the first 6 days old: not yet (the others count as failing now), D later it disables', async () => {
      const { clock, deps, receiver, endpointFor, run } = await setup();
      const failing = await receiver(() => ({ status: 500 }));
      const endpoint = await endpointFor(failing, ['knap.run']);
      await plantOldStreak(endpoint, 12, new Date(clock.now().getTime() - 6 * DAY * 1000));
      await run('failed');
      const stored = await deps.repo.getWebhookEndpoint(endpoint.endpointId);
      expect(stored).toMatchObject({ disabled: false, failStreak: 13 });
      expect(stored?.recentFailures).toHaveLength(10);
      clock.advance(5 * DAY);
      await run('failed');
      expect(await deps.repo.getWebhookEndpoint(endpoint.endpointId)).toMatchObject({ disabled: true });
    });
  });
});
