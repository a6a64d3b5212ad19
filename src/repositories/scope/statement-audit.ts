/**
 * The check behind the tenant boundary: does every statement that reads or
 * writes a workspace's table say which workspace? Given a Kysely statement
 * (its operation tree), it names each tenant table the statement reaches
 * without `workspace_id = <value>` among the conditions that must all hold
 * (the WHERE, a JOIN's ON, through AND and parentheses only), and each insert
 * into one without a workspace_id column. Subqueries are checked as
 * statements of their own. A tenant scope runs it on every statement it
 * builds, and the SQL snapshot script on every statement a repository runs.
 */
import type { OperationNode } from 'kysely';
import { TENANT_TABLES } from '../../db/schema.js';

type Node = OperationNode & Record<string, unknown>;

const WORKSPACE_COLUMN = 'workspace_id';

/** The tables a statement must name its workspace for. */
interface Audit {
  tables: ReadonlySet<string>;
  word: RegExp;
  violations: string[];
}

interface Source {
  table: string;
  /** the name the statement refers to it by (its alias, else its name) */
  name: string;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}

function identifier(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (node.kind === 'IdentifierNode') return node.name as string;
  if (node.kind === 'SchemableIdentifierNode') return identifier(node.identifier);
  if (node.kind === 'TableNode') return identifier(node.table);
  return undefined;
}

function sourceOf(node: unknown): Source | undefined {
  if (!isNode(node)) return undefined;
  if (node.kind === 'TableNode') {
    const table = identifier(node);
    return table === undefined ? undefined : { table, name: table };
  }
  if (node.kind === 'AliasNode') {
    const inner = sourceOf(node.node);
    const alias = identifier(node.alias);
    return inner === undefined || alias === undefined ? undefined : { table: inner.table, name: alias };
  }
  return undefined;
}

/** The conditions that must all hold: AND and parentheses are looked through, OR is not. */
function conjuncts(node: unknown, into: Node[] = []): Node[] {
  if (!isNode(node)) return into;
  if (node.kind === 'AndNode') {
    conjuncts(node.left, into);
    conjuncts(node.right, into);
  } else if (node.kind === 'ParensNode') {
    conjuncts(node.node, into);
  } else {
    into.push(node);
  }
  return into;
}

/** `workspace_id` or `<table>.workspace_id`: the table name or '' when unqualified; undefined otherwise. */
function workspaceReference(node: unknown): string | undefined {
  if (!isNode(node) || node.kind !== 'ReferenceNode') return undefined;
  const column = node.column as Node;
  if (column.kind !== 'ColumnNode' || identifier(column.column) !== WORKSPACE_COLUMN) return undefined;
  return node.table === undefined ? '' : (identifier(node.table) ?? '');
}

function isValue(node: unknown): boolean {
  return isNode(node) && (node.kind === 'ValueNode' || node.kind === 'RawNode');
}

function checkQuery(node: Node, audit: Audit): void {
  const { violations } = audit;
  const TENANT = audit.tables;
  const sources: Source[] = [];
  const conditions: Node[] = [];
  const add = (candidate: unknown) => {
    const source = sourceOf(candidate);
    if (source !== undefined) sources.push(source);
  };
  const from = node.from as Node | undefined;
  for (const item of (from?.froms as unknown[] | undefined) ?? []) add(item);
  if (node.kind === 'UpdateQueryNode') add(node.table);
  for (const join of (node.joins as Node[] | undefined) ?? []) {
    add(join.table);
    if (join.on !== undefined) conjuncts((join.on as Node).on, conditions);
  }
  if (node.where !== undefined) conjuncts((node.where as Node).where, conditions);

  if (node.kind === 'InsertQueryNode') {
    const into = sourceOf(node.into);
    if (into !== undefined && TENANT.has(into.table)) {
      const columns = ((node.columns as Node[] | undefined) ?? []).map((column) => identifier(column.column));
      if (!columns.includes(WORKSPACE_COLUMN)) violations.push(`insert into ${into.table} without workspace_id`);
    }
    return;
  }

  const tenantSources = sources.filter((source) => TENANT.has(source.table));
  if (tenantSources.length === 0) return;
  const scoped = new Set<string>();
  const links: [string, string][] = [];
  const known = new Set(sources.map((source) => source.name));
  const resolve = (name: string) => (name === '' && tenantSources.length === 1 ? tenantSources[0]!.name : name);
  for (const condition of conditions) {
    if (condition.kind !== 'BinaryOperationNode') continue;
    if ((condition.operator as Node).operator !== '=') continue;
    const left = workspaceReference(condition.leftOperand);
    const right = workspaceReference(condition.rightOperand);
    if (left !== undefined && right === undefined && isValue(condition.rightOperand)) scoped.add(resolve(left));
    else if (right !== undefined && left === undefined && isValue(condition.leftOperand)) scoped.add(resolve(right));
    else if (left !== undefined && right !== undefined) {
      const [a, b] = [resolve(left), resolve(right)];
      // a correlated subquery's condition on an outer table: the outer statement is checked on its own
      if (!known.has(b)) scoped.add(a);
      else if (!known.has(a)) scoped.add(b);
      else links.push([a, b]);
    }
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const [a, b] of links) {
      if (scoped.has(a) !== scoped.has(b)) {
        scoped.add(a);
        scoped.add(b);
        changed = true;
      }
    }
  }
  for (const source of tenantSources) {
    if (!scoped.has(source.name)) violations.push(`${source.table} without workspace_id = <workspace>`);
  }
}

function walk(value: unknown, audit: Audit): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, audit);
    return;
  }
  if (!isNode(value)) return;
  if (value.kind.endsWith('QueryNode')) checkQuery(value, audit);
  if (value.kind === 'RawNode') {
    const text = (value.sqlFragments as readonly string[]).join(' ');
    if (audit.word.test(text)) audit.violations.push(`raw SQL naming a tenant table: ${text.trim().slice(0, 80)}`);
  }
  for (const key of Object.keys(value)) {
    if (key !== 'kind') walk(value[key], audit);
  }
}

/**
 * What is wrong with `statement` for the tenant boundary; empty when nothing
 * is. `tables` are those whose rows belong to a workspace: the tenant tables
 * by default (the SQL snapshot check adds the operator ones).
 */
export function auditStatement(statement: OperationNode, tables: readonly string[] = TENANT_TABLES): string[] {
  const rules = tables === TENANT_TABLES ? TENANT_RULES : rulesFor(tables);
  const audit: Audit = { ...rules, violations: [] };
  walk(statement, audit);
  return audit.violations;
}

function rulesFor(tables: readonly string[]): Omit<Audit, 'violations'> {
  return { tables: new Set(tables), word: new RegExp(`\\b(${tables.join('|')})\\b`, 'i') };
}

const TENANT_RULES = rulesFor(TENANT_TABLES);
