/**
 * The id of a workspace, as only trusted lookups produce it: the API key
 * lookup, the CLI's workspace lookup and a dashboard session's membership. Tenant
 * data is reached through repositories bound to one WorkspaceId, so a plain
 * string from a request can never select another workspace's rows: it does
 * not type-check. The brand comes from the database schema (columns that
 * hold a workspace id are typed WorkspaceId), and lint forbids casting to it
 * outside the operator repositories (eslint.config.js).
 */
declare const brand: unique symbol;

export type WorkspaceId = string & { readonly [brand]: 'WorkspaceId' };
