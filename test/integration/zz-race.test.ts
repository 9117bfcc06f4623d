import { DEFAULT_QUOTAS } from '../../shared/domain/quotas.js';
import { startTestTable } from '../../test/support/dynamo.js';

test('race', async () => {
  const table = await startTestTable();
  const deps = table.deps(new (await import('../../test/support/clock.js')).FakeClock());
  const results = await Promise.all(
    Array.from({ length: 24 }, () => deps.repo.reserveQuota('o', ['endpoints'], DEFAULT_QUOTAS).catch((e) => `${e.name}`)),
  );
  console.log(JSON.stringify(results), JSON.stringify(await deps.repo.quotaUsage('o')));
  await table.close();
});
