import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/** The table a node names: a table, or an aliased table. */
function tableName(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.kind === 'TableNode')
    return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
  if (node.kind === 'AliasNode') return tableName((node as unknown as { node: OperationNode }).node);
  return undefined;
}

/** The table an INSERT, UPDATE or DELETE writes; undefined for any other statement. */
function writtenTable(node: RootOperationNode): string | undefined {
  switch (node.kind) {
    case 'InsertQueryNode':
      return tableName(node.into);
    case 'UpdateQueryNode':
      return tableName(node.table);
    case 'DeleteQueryNode':
      return node.from.froms.map(tableName).find(Boolean);
    default:
      return undefined;
  }
}

/**
 * Counts the writes to one table completed through the Kysely instance it is attached to (see
 * `withPlugin`), so whoever caches a read of that table can tell, by comparing counts, whether this
 * process changed it since. Writes by other processes are not seen: such caches also expire.
 */
export class TableWriteCounter implements KyselyPlugin {
  private writes = 0;
  private readonly inFlight = new WeakSet<QueryId>();

  constructor(private readonly table: string) {}

  /** Writes completed so far. */
  get count(): number {
    return this.writes;
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (writtenTable(node) === this.table) this.inFlight.add(queryId);
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    // Counted once the statement has run: a reader that started before it cannot cache under the new count.
    if (this.inFlight.delete(queryId)) this.writes++;
    return result;
  }
}
