/**
 * The statements a piece of work runs, for tests that pin how many it takes
 * (an export reading chunk after chunk, not re-counting for each): the same
 * database, its Kysely handle extended with a plugin that records each
 * statement's operation tree before it runs. Nothing is replaced: the
 * statements run on the real store.
 */
import type { KyselyPlugin, OperationNode, RootOperationNode } from 'kysely';
import type { Database } from '../../src/db/database.js';

export interface RecordedStatement {
  kind: RootOperationNode['kind'];
  /** the tables it names */
  tables: string[];
  /** it computes count(*) or count(column) */
  counts: boolean;
}

function walk(node: unknown, visit: (node: OperationNode & Record<string, unknown>) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  if (typeof (node as { kind?: unknown }).kind === 'string') visit(node as OperationNode & Record<string, unknown>);
  for (const value of Object.values(node)) walk(value, visit);
}

function describe(node: RootOperationNode): RecordedStatement {
  const tables = new Set<string>();
  let counts = false;
  walk(node, (child) => {
    if (child.kind === 'TableNode') {
      const identifier = (child.table as { identifier?: { name?: string } }).identifier;
      if (identifier?.name !== undefined) tables.add(identifier.name);
    }
    if (child.kind === 'AggregateFunctionNode' && child.func === 'count') counts = true;
  });
  return { kind: node.kind, tables: [...tables].sort(), counts };
}

/** `database` with every statement built on its handle recorded in `statements` (cleared by the caller as it likes). */
export function recordingDatabase(database: Database): { database: Database; statements: RecordedStatement[] } {
  const statements: RecordedStatement[] = [];
  const plugin: KyselyPlugin = {
    transformQuery({ node }) {
      statements.push(describe(node));
      return node;
    },
    async transformResult({ result }) {
      return result;
    },
  };
  const recorded = Object.create(database, { db: { value: database.db.withPlugin(plugin) } }) as Database;
  return { database: recorded, statements };
}
