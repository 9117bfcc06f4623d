/**
 * The store's DynamoDB commands: lib-dynamodb's eight the store sends, as plain data (the
 * operation, the input in plain values, which parts of input and output are attribute values).
 *
 * Why not lib-dynamodb's classes in the store: the store's modules and their unit tests stay
 * free of the SDK (a fake sender reads plain data), and a command is built only when a call is
 * sent: the client (dynamo-client.ts) gives the SDK lib-dynamodb's command of the same name and
 * input.
 *
 * The names, inputs and outputs are lib-dynamodb's, so a store module only changes where it
 * imports them from; test/unit/commands.test.ts holds the key nodes equal to lib-dynamodb's.
 */
import type {
  BatchGetCommandInput,
  BatchGetCommandOutput,
  BatchWriteCommandInput,
  BatchWriteCommandOutput,
  DeleteCommandInput,
  DeleteCommandOutput,
  GetCommandInput,
  GetCommandOutput,
  PutCommandInput,
  PutCommandOutput,
  QueryCommandInput,
  QueryCommandOutput,
  ScanCommandInput,
  ScanCommandOutput,
  UpdateCommandInput,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';

export type {
  BatchGetCommandInput,
  BatchWriteCommandInput,
  DeleteCommandInput,
  GetCommandInput,
  PutCommandInput,
  QueryCommandInput,
  QueryCommandOutput,
  ScanCommandInput,
  UpdateCommandInput,
};

/** How the store's values become attribute values (lib-dynamodb's marshalling): members left undefined are left out. */
export const MARSHALL_OPTIONS = { removeUndefinedValues: true } as const;

/**
 * lib-dynamodb's key-node walk: `{}` converts every value of an object, `[]` every member,
 * `{ '*': n }` goes a level down, `null` converts the node itself, other keys pick the members
 * named (test/unit/commands.test.ts holds them equal to lib-dynamodb's).
 */
export type KeyNodes = { [member: string]: KeyNodes } | [] | null;

const ALL_VALUES: KeyNodes = {};
const ALL_MEMBERS: KeyNodes = [];
const SELF: KeyNodes = null;

/** What a command class says of its calls: the same for every instance, so kept on the class. */
export interface CommandSpec {
  /** DynamoDB's name for the operation (`X-Amz-Target`), and lib-dynamodb's class for it. */
  readonly operation: 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'Query' | 'Scan' | 'BatchGetItem' | 'BatchWriteItem';
  readonly documentCommand: string;
  readonly inputKeyNodes: KeyNodes;
  readonly outputKeyNodes: KeyNodes;
}

/** Where a command class keeps its spec: a registered symbol, read without `instanceof`. */
const SPEC = Symbol.for('knap.store-command.spec');

/** A store command: its input, and (for the compiler only) what the call answers. */
export abstract class StoreCommand<Input, Output> {
  declare readonly __output?: Output;
  constructor(readonly input: Input) {}
}

/** The spec of `command`'s class, or undefined for anything not made here (a test's lib-dynamodb command). */
export const specOf = (command: unknown): CommandSpec | undefined =>
  typeof command === 'object' && command !== null
    ? (command.constructor as { [SPEC]?: CommandSpec } | undefined)?.[SPEC]
    : undefined;

const WRITTEN_ITEM: KeyNodes = { Attributes: ALL_VALUES, ItemCollectionMetrics: { ItemCollectionKey: ALL_VALUES } };
const EXPECTED: KeyNodes = { '*': { Value: SELF, AttributeValueList: ALL_MEMBERS } };
const PAGE: KeyNodes = { Items: { '*': ALL_VALUES }, LastEvaluatedKey: ALL_VALUES };
const FILTER: KeyNodes = { '*': { AttributeValueList: ALL_MEMBERS } };
const BATCH_WRITES: KeyNodes = { '*': { '*': { PutRequest: { Item: ALL_VALUES }, DeleteRequest: { Key: ALL_VALUES } } } };

export class GetCommand extends StoreCommand<GetCommandInput, GetCommandOutput> {
  static readonly [SPEC]: CommandSpec = {
    operation: 'GetItem',
    documentCommand: 'GetCommand',
    inputKeyNodes: { Key: ALL_VALUES },
    outputKeyNodes: { Item: ALL_VALUES },
  };
}

export class PutCommand extends StoreCommand<PutCommandInput, PutCommandOutput> {
  static readonly [SPEC]: CommandSpec = {
    operation: 'PutItem',
    documentCommand: 'PutCommand',
    inputKeyNodes: { Item: ALL_VALUES, Expected: EXPECTED, ExpressionAttributeValues: ALL_VALUES },
    outputKeyNodes: WRITTEN_ITEM,
  };
}

export class UpdateCommand extends StoreCommand<UpdateCommandInput, UpdateCommandOutput> {
  static readonly [SPEC]: CommandSpec = {
    operation: 'UpdateItem',
    documentCommand: 'UpdateCommand',
    inputKeyNodes: {
      Key: ALL_VALUES,
      AttributeUpdates: { '*': { Value: SELF } },
      Expected: EXPECTED,
      ExpressionAttributeValues: ALL_VALUES,
    },
    outputKeyNodes: WRITTEN_ITEM,
  };
}

export class DeleteCommand extends StoreCommand<DeleteCommandInput, DeleteCommandOutput> {
  static readonly [SPEC]: CommandSpec = {
    operation: 'DeleteItem',
    documentCommand: 'DeleteCommand',
    inputKeyNodes: { Key: ALL_VALUES, Expected: EXPECTED, ExpressionAttributeValues: ALL_VALUES },
    outputKeyNodes: WRITTEN_ITEM,
  };
}

export class QueryCommand extends StoreCommand<QueryCommandInput, QueryCommandOutput> {
  static readonly [SPEC]: CommandSpec = {
    operation: 'Query',
    documentCommand: 'QueryCommand',
    inputKeyNodes: {
      KeyConditions: FILTER,
      QueryFilter: FILTER,
      ExclusiveStartKey: ALL_VALUES,
      ExpressionAttributeValues: ALL_VALUES,
    },
    outputKeyNodes: PAGE,
  };
}

export class ScanCommand extends StoreCommand<ScanCommandInput, ScanCommandOutput> {
  static readonly [SPEC]: CommandSpec = {
    operation: 'Scan',
    documentCommand: 'ScanCommand',
    inputKeyNodes: { ScanFilter: FILTER, ExclusiveStartKey: ALL_VALUES, ExpressionAttributeValues: ALL_VALUES },
    outputKeyNodes: PAGE,
  };
}

export class BatchGetCommand extends StoreCommand<BatchGetCommandInput, BatchGetCommandOutput> {
  static readonly [SPEC]: CommandSpec = {
    operation: 'BatchGetItem',
    documentCommand: 'BatchGetCommand',
    inputKeyNodes: { RequestItems: { '*': { Keys: { '*': ALL_VALUES } } } },
    outputKeyNodes: {
      Responses: { '*': { '*': ALL_VALUES } },
      UnprocessedKeys: { '*': { Keys: { '*': ALL_VALUES } } },
    },
  };
}

export class BatchWriteCommand extends StoreCommand<BatchWriteCommandInput, BatchWriteCommandOutput> {
  static readonly [SPEC]: CommandSpec = {
    operation: 'BatchWriteItem',
    documentCommand: 'BatchWriteCommand',
    inputKeyNodes: { RequestItems: BATCH_WRITES },
    outputKeyNodes: {
      UnprocessedItems: BATCH_WRITES,
      ItemCollectionMetrics: { '*': { '*': { ItemCollectionKey: ALL_VALUES } } },
    },
  };
}
