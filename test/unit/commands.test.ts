import * as documentCommands from '@aws-sdk/lib-dynamodb';
import * as storeCommands from '../../shared/store/commands.js';
import { type CommandSpec, specOf } from '../../shared/store/commands.js';

/**
 * The store's commands say what lib-dynamodb's of the same name say: which parts of the input
 * and output are attribute values (the wire marshals by them), the operation under them, and
 * the lib-dynamodb class the SDK's path builds from them.
 */
type StoreClass = new (input: object) => object;
const classes = Object.entries(storeCommands as Record<string, unknown>).filter(
  (entry): entry is [string, StoreClass] =>
    typeof entry[1] === 'function' && 'prototype' in entry[1] && specOf(new (entry[1] as StoreClass)({})) !== undefined,
);

test('eight commands, the ones the store sends', () => {
  expect(classes.map(([name]) => name).sort()).toEqual([
    'BatchGetCommand',
    'BatchWriteCommand',
    'DeleteCommand',
    'GetCommand',
    'PutCommand',
    'QueryCommand',
    'ScanCommand',
    'UpdateCommand',
  ]);
});

test.each(classes)('%s: lib-dynamodb key nodes and operation', (name, StoreClass) => {
  const spec = specOf(new StoreClass({})) as CommandSpec;
  expect(spec.documentCommand).toBe(name);
  const DocumentClass = (documentCommands as unknown as Record<string, new (input: object) => Record<string, unknown>>)[name];
  const document = new (DocumentClass as new (input: object) => Record<string, unknown>)({});
  expect(spec.inputKeyNodes).toEqual(document.inputKeyNodes);
  expect(spec.outputKeyNodes).toEqual(document.outputKeyNodes);
  expect(`${spec.operation}Command`).toBe((document.clientCommand as object).constructor.name);
});

test('a command keeps its input as given, and only the store commands have a spec', () => {
  const input = { TableName: 'knap', Key: { pk: 'K#1', sk: 'K' } };
  const command = new storeCommands.GetCommand(input);
  expect(command.input).toBe(input);
  expect(specOf(command)?.operation).toBe('GetItem');
  expect(specOf(new documentCommands.GetCommand(input))).toBeUndefined();
  expect(specOf({ input })).toBeUndefined();
  expect(specOf(null)).toBeUndefined();
  expect(specOf(Object.create(null))).toBeUndefined();
});
