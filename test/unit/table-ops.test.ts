/**
 * TableOps.batchGet: chunks of 100 keys, and what DynamoDB leaves unprocessed (under
 * throttling; dynalite never does) tried again, five tries in all. The table is a stand-in
 * that answers BatchGetItem from a map and leaves keys unprocessed on purpose.
 */
import { BatchGetCommand } from '../../shared/store/commands.js';
import type { DocumentSender } from '../../shared/store/dynamo-client.js';
import { TableOps } from '../../shared/store/table-ops.js';

type Key = { pk: string; sk: string };

/** Answers every key it holds, except the first `leave(call)` keys of a call, which it leaves unprocessed. */
const standIn = (stored: Key[], leave: (call: number) => number) => {
  const calls: Key[][] = [];
  const held = new Set(stored.map((key) => key.pk));
  const db = {
    send: async (command: unknown) => {
      if (!(command instanceof BatchGetCommand)) throw new Error('only BatchGetItem here');
      const keys = command.input.RequestItems?.knap?.Keys as Key[];
      calls.push(keys);
      const left = keys.slice(0, leave(calls.length));
      const answered = keys.slice(left.length).filter((key) => held.has(key.pk));
      return {
        Responses: { knap: answered.map((key) => ({ ...key, found: true })) },
        UnprocessedKeys: left.length > 0 ? { knap: { Keys: left, ConsistentRead: true } } : {},
      };
    },
  };
  return { table: new TableOps(db as unknown as DocumentSender, 'knap'), calls };
};

const keys = (count: number): Key[] => Array.from({ length: count }, (_, n) => ({ pk: `K#${n}`, sk: 'K' }));

test('two keys, all processed: one call, both items', async () => {
  const { table, calls } = standIn(keys(2), () => 0);
  expect((await table.batchGet(keys(2))).map((item) => item.pk)).toEqual(['K#0', 'K#1']);
  expect(calls).toHaveLength(1);
});

test('keys left unprocessed are asked for again, only they, until none is left', async () => {
  const { table, calls } = standIn(keys(3), (call) => (call <= 2 ? 1 : 0));
  const items = await table.batchGet(keys(3));
  expect(items.map((item) => item.pk).sort()).toEqual(['K#0', 'K#1', 'K#2']);
  expect(calls.map((sent) => sent.map((key) => key.pk))).toEqual([['K#0', 'K#1', 'K#2'], ['K#0'], ['K#0']]);
});

test('five tries in all, then an error that says how many are left', async () => {
  const { table, calls } = standIn(keys(2), () => 1);
  await expect(table.batchGet(keys(2))).rejects.toThrow('BatchGetItem left 1 item(s) unprocessed');
  expect(calls).toHaveLength(5);
});

test('more than 100 keys go in chunks of 100', async () => {
  const { table, calls } = standIn(keys(250), () => 0);
  expect(await table.batchGet(keys(250))).toHaveLength(250);
  expect(calls.map((sent) => sent.length)).toEqual([100, 100, 50]);
});

test('keys of no item are not answered', async () => {
  const { table } = standIn(keys(1), () => 0);
  expect((await table.batchGet(keys(3))).map((item) => item.pk)).toEqual(['K#0']);
});
