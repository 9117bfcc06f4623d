import { LocalDeliveryQueue, MAX_PER_LANE, MAX_TRIES } from '../../local/delivery-queue.js';
import { waitFor } from '../support/deliveries.js';

/** A deliver function whose attempts the test ends by hand. */
const controlled = () => {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const deliver = (runId: string) =>
    new Promise<void>((resolve) => {
      started.push(runId);
      finish.set(runId, resolve);
    });
  return { started, finish, deliver };
};

describe('LocalDeliveryQueue', () => {
  test('attempts run at once and side by side: one that hangs holds up no other', async () => {
    const { started, finish, deliver } = controlled();
    const queue = new LocalDeliveryQueue({ deliver, timeScale: 1 });
    await queue.enqueue('run_slow', 0);
    await queue.enqueue('run_fast', 0);
    await waitFor('both attempts', () => (started.length === 2 ? true : undefined), 2000);
    expect(queue.size).toEqual({ waiting: 0, running: 2 });
    finish.get('run_fast')?.();
    await waitFor('run_fast to end', () => (queue.size.running === 1 ? true : undefined), 2000);
    finish.get('run_slow')?.();
    await queue.close();
  });

  test('waits are scaled; close() clears waiting attempts, waits for running ones, and ignores later ones', async () => {
    const { started, finish, deliver } = controlled();
    const queue = new LocalDeliveryQueue({ deliver, timeScale: 1 / 1000 });
    await queue.enqueue('run_soon', 20); // 20 ms
    await queue.enqueue('run_later', 3600); // 3.6 s: still waiting at close
    await waitFor('run_soon', () => (started.includes('run_soon') ? true : undefined), 2000);
    expect(queue.size).toEqual({ waiting: 1, running: 1 });

    let closed = false;
    const closing = queue.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false); // run_soon is still under way
    finish.get('run_soon')?.();
    await closing;
    expect(queue.size).toEqual({ waiting: 0, running: 0 });
    await queue.enqueue('run_after_close', 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toEqual(['run_soon']);
  });

  test('an attempt that throws is tried again, as SQS would, up to MAX_TRIES times', async () => {
    const errors: string[] = [];
    let tries = 0;
    const queue = new LocalDeliveryQueue({
      deliver: async () => {
        tries += 1;
        throw new Error(`store down ${tries}`);
      },
      timeScale: 1 / 10_000,
      onError: (_runId, error) => errors.push((error as Error).message),
    });
    await queue.enqueue('run_x', 0);
    await waitFor('every try', () => (errors.length === MAX_TRIES ? true : undefined), 5000);
    await waitFor('the queue to be empty', () => (queue.size.waiting + queue.size.running === 0 ? true : undefined), 2000);
    expect(tries).toBe(MAX_TRIES);
    await queue.close();
  });

  test('a page of meeting runs runs at once, and is tried again when it throws', async () => {
    const task = {
      meeting: { meeting_id: 'm', title: null, occurred_at: null, transcript_url: null, user_id: null },
      client_id: 'knap_ci_a',
      org_name: 'acme',
      cursor: 'c',
    };
    const seen: number[] = [];
    const errors: string[] = [];
    const queue = new LocalDeliveryQueue({
      deliver: async () => {},
      continueFanOut: async () => {
        seen.push(seen.length);
        if (seen.length === 1) throw new Error('store unavailable');
      },
      onError: (id) => errors.push(id),
      timeScale: 1 / 1000,
    });
    await queue.enqueueMeetingFanOut(task);
    await waitFor('the page, twice', () => (seen.length === 2 ? true : undefined), 2000);
    expect(seen).toEqual([0, 1]);
    expect(errors).toEqual(['meeting m']);
    await queue.close();
    await expect(new LocalDeliveryQueue({ deliver: async () => {} }).enqueueMeetingFanOut(task)).rejects.toThrow(
      /makes no meeting runs/,
    );
  });

  test("a run's start waits in its organization's lane: X's backlog of starts never holds up Y's", async () => {
    // X's starts never end (the store hangs for them); Y's start must still run, by counting, not timing.
    const { started, finish, deliver } = controlled();
    const queue = new LocalDeliveryQueue({ deliver, timeScale: 1 });
    for (let n = 0; n < 3 * MAX_PER_LANE; n += 1) await queue.enqueue(`run_x_${n}`, 0, { orgName: 'x-org' });
    await waitFor("X's starts", () => (started.length === MAX_PER_LANE ? true : undefined), 2000);
    await queue.enqueue('run_y', 0, { orgName: 'y-org' });
    await waitFor("Y's start", () => (started.includes('run_y') ? true : undefined), 2000);
    expect(started.filter((id) => id.startsWith('run_x_'))).toHaveLength(MAX_PER_LANE);
    expect(queue.size).toEqual({ waiting: 2 * MAX_PER_LANE, running: MAX_PER_LANE + 1 });
    for (const end of finish.values()) end();
    await queue.close();
  });
});
