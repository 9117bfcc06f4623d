import { createClient } from '../../shared/domain/clients.js';
import type { Repository } from '../../shared/domain/repository.js';
import type { Deps } from '../../shared/runtime.js';
import { meterRequest } from '../../shared/services/meter.js';
import { FakeClock } from '../support/clock.js';

test('a counter that keeps moving under the write (requests and refunds racing at the limit) is a 429, not a 500', async () => {
  const clock = new FakeClock();
  const { client } = createClient({ orgName: 'acme', name: 'busy', rateLimit: 10 }, clock);
  let writes = 0;
  // Every write refused, and every read-back under the limit: what refunds racing the write look like.
  const repo = {
    countRequest: async () => {
      writes += 1;
      return { applied: false, state: { client, window: Math.floor(clock.now().getTime() / 60_000) * 60, count: 9 } };
    },
  } as unknown as Repository;
  const outcome = await meterRequest({ repo, clock, defaultRateLimit: 100 } as unknown as Deps, client.clientId, {
    generation: client.generation,
  });
  expect(outcome).toEqual(
    expect.objectContaining({ kind: 'limited', rate: expect.objectContaining({ limit: 10, remaining: 0 }) }),
  );
  expect(writes).toBe(4);
});
