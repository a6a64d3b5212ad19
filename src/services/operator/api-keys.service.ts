/**
 * API keys (CONTRACT C2.1, C2.2, C3.4). A secret is shown once and only its
 * SHA-256 is stored. Every request looks its key up by hash, so a revoked or
 * rotated key fails on the very next request on every process; nothing here
 * caches which keys are valid (only, briefly, which are not: unknown-keys.ts). Key use is recorded at most once a minute per
 * key and process.
 */
import { hash, randomBytes } from 'node:crypto';
import type { OperatorRepositories, Store } from '../../repositories/index.js';
import type { ActiveKey, ApiKey } from '../../repositories/operator/api-keys.repository.js';
import type { KeyType } from '../../repositories/operator/workspaces.repository.js';
import { LIMITS } from '../../schemas/fields.js';
import { now } from '../../schemas/instants.js';
import { isStorableText } from '../../schemas/text-guards.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { InvalidRequestError, NotFoundError, ServiceError } from '../errors.js';
import { newId, pathId } from '../ids.js';
import { UnknownKeys } from './unknown-keys.js';

export type { ActiveKey, KeyType };

const PREFIX: Record<KeyType, string> = { production: 'll_prod_', development: 'll_dev_' };
const SECRET_LENGTH = 40;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_FORMAT = /^ll_(prod|dev)_[0-9A-Za-z]{32,128}$/;
const USE_RECORD_INTERVAL_MS = 60_000;

export interface CreatedKey {
  id: string;
  workspace_id: WorkspaceId;
  type: KeyType;
  name: string | null;
  key: string;
  created_at: string;
}

export interface ListedKey {
  id: string;
  type: KeyType;
  name: string | null;
  hint: string;
  created_at: string;
  last_used_at: string | null;
}

/** Uniform base62 characters from a CSPRNG (bytes of 248 and above are dropped). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function hashKey(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function looksLikeKey(secret: string): boolean {
  return KEY_FORMAT.test(secret);
}

export class ApiKeysService {
  readonly #lastRecorded = new Map<string, number>();
  readonly #unknown: UnknownKeys;

  constructor(
    private readonly store: Store,
    /** the clock of key use records (tests move it) */
    private readonly clock: () => number = Date.now,
  ) {
    this.#unknown = new UnknownKeys(clock);
  }

  private get repos(): OperatorRepositories {
    return this.store.operator;
  }

  async create(workspaceId: string, type: KeyType, name: string | null = null): Promise<CreatedKey> {
    const workspace = await this.repos.workspaces.findById(pathId(workspaceId, 'workspace'));
    if (workspace === undefined) throw new NotFoundError('workspace');
    return this.insertKey(this.repos, workspace.id, type, validName(name), null);
  }

  /** How a note names the key that wrote it (C9.3): the key's name, else its type and last four characters. */
  async displayName(keyId: string): Promise<string> {
    const key = await this.repos.apiKeys.findById(keyId);
    if (key === undefined) return 'API key';
    return key.name ?? `${key.type} key …${key.hint}`;
  }

  async list(workspaceId: string): Promise<ListedKey[]> {
    const workspace = await this.repos.workspaces.findById(pathId(workspaceId, 'workspace'));
    if (workspace === undefined) throw new NotFoundError('workspace');
    const keys = await this.repos.apiKeys.listActive(workspace.id);
    return keys.map((key) => ({
      id: key.id,
      type: key.type,
      name: key.name,
      hint: key.hint,
      created_at: key.created_at,
      last_used_at: key.last_used_at,
    }));
  }

  /**
   * A new key of the same workspace, type and name; the old one is revoked in
   * the same transaction. `within` (a dashboard session's workspace): a key
   * of another workspace is not found.
   */
  rotate(keyId: string, within?: WorkspaceId): Promise<CreatedKey & { replaces: string }> {
    const id = pathId(keyId, 'key');
    return this.store.transaction(async (repos) => {
      const old = await this.activeKey(repos, id, within);
      const created = await this.insertKey(repos, old.workspace_id, old.type, old.name, old.id);
      await repos.apiKeys.revoke(old.workspace_id, old.id, created.created_at);
      return { ...created, replaces: old.id };
    });
  }

  /** Revokes a key; revoking a revoked key answers its original revocation time. `within`: as rotate. */
  async revoke(keyId: string, within?: WorkspaceId): Promise<{ id: string; revoked_at: string }> {
    const id = pathId(keyId, 'key');
    return this.store.transaction(async (repos) => {
      const key = await repos.apiKeys.findById(id);
      if (key === undefined || (within !== undefined && key.workspace_id !== within)) throw new NotFoundError('key');
      if (key.revoked_at !== null) return { id: key.id, revoked_at: key.revoked_at };
      const revokedAt = now();
      await repos.apiKeys.revoke(key.workspace_id, key.id, revokedAt);
      return { id: key.id, revoked_at: revokedAt };
    });
  }

  /** The active key a presented secret belongs to, if any. */
  /** The active key `secret` names, if any; `onLookup` is told of each database lookup (metrics). */
  async authenticate(secret: string, onLookup?: () => void): Promise<ActiveKey | undefined> {
    if (!looksLikeKey(secret)) return undefined;
    const keyHash = hashKey(secret);
    if (this.#unknown.has(keyHash)) return undefined;
    onLookup?.();
    const key = await this.repos.apiKeys.findActiveByHash(keyHash);
    if (key === undefined || !secret.startsWith(PREFIX[key.type])) {
      this.#unknown.remember(keyHash);
      return undefined;
    }
    return key;
  }

  /**
   * Records a use of `key` unless this process recorded one in the last
   * minute; then (nearly every request) answers undefined at once, with
   * nothing to wait for.
   */
  recordUse(key: ActiveKey, at = this.clock()): Promise<void> | undefined {
    const last = this.#lastRecorded.get(key.id);
    if (last !== undefined && at - last < USE_RECORD_INTERVAL_MS) return undefined;
    this.#lastRecorded.set(key.id, at);
    const stamp = new Date(at).toISOString();
    return this.store.transaction(async (repos) => {
      await repos.apiKeys.recordUse(key.workspace_id, key.id, stamp);
      await repos.workspaces.recordKeyUse(key.workspace_id, key.type, stamp);
    });
  }

  private async activeKey(repos: OperatorRepositories, id: string, within: WorkspaceId | undefined): Promise<ApiKey> {
    const key = await repos.apiKeys.findById(id);
    if (key === undefined || (within !== undefined && key.workspace_id !== within)) throw new NotFoundError('key');
    if (key.revoked_at !== null) {
      throw new ServiceError('conflict', `key ${key.id} is revoked`, { conflict: 'key_revoked', key_id: key.id, revoked_at: key.revoked_at });
    }
    return key;
  }

  private async insertKey(
    repos: OperatorRepositories,
    workspaceId: WorkspaceId,
    type: KeyType,
    name: string | null,
    replaces: string | null,
  ): Promise<CreatedKey> {
    const secret = PREFIX[type] + randomBase62(SECRET_LENGTH);
    const key: ApiKey = {
      id: newId(),
      workspace_id: workspaceId,
      type,
      name,
      key_hash: hashKey(secret),
      hint: secret.slice(-4),
      created_at: now(),
      last_used_at: null,
      revoked_at: null,
      replaces,
    };
    await repos.apiKeys.insert(key);
    return { id: key.id, workspace_id: workspaceId, type, name, key: secret, created_at: key.created_at };
  }
}

function validName(name: string | null): string | null {
  if (name === null) return null;
  if (name.length > LIMITS.name || !isStorableText(name)) {
    throw new InvalidRequestError(`key name must be at most ${LIMITS.name} characters of text`, { fields: { name: `must be at most ${LIMITS.name} characters of text` } });
  }
  return name;
}
