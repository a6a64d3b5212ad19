/**
 * Site keys (CONTRACT C5.1): publishable keys that can only send events,
 * one workspace each, with the origins they accept. They are public (they sit
 * in every page that carries the tracker), so they are stored as they are and
 * listed with their value. Every event request looks its key up, so a revoked
 * key fails on the very next request on every process; nothing caches which
 * keys are valid. The CLI and the dashboard's settings manage them through here.
 */
import { randomBytes } from 'node:crypto';
import type { Store } from '../../repositories/index.js';
import type { ActiveSiteKey, SiteKey } from '../../repositories/operator/site-keys.repository.js';
import { LIMITS } from '../../schemas/fields.js';
import { now } from '../../schemas/instants.js';
import { isStorableText } from '../../schemas/text-guards.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import { newId, pathId } from '../ids.js';
import { canonicalPattern } from '../tracking/origins.js';

export type { ActiveSiteKey };

export const SITE_KEY_PREFIX = 'll_site_';
const SECRET_LENGTH = 32;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_FORMAT = /^ll_site_[0-9A-Za-z]{24,128}$/;
const USE_RECORD_INTERVAL_MS = 60_000;
const MAX_ORIGINS = 100;

export interface CreatedSiteKey {
  id: string;
  workspace_id: WorkspaceId;
  name: string | null;
  key: string;
  origins: string[];
  created_at: string;
}

export interface ListedSiteKey {
  id: string;
  name: string | null;
  key: string;
  origins: string[];
  created_at: string;
  last_used_at: string | null;
}

/** A site key as the dashboard's settings show it: revoked ones too, with when. */
export interface SettingsSiteKey extends ListedSiteKey {
  revoked_at: string | null;
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

export function looksLikeSiteKey(text: string): boolean {
  return KEY_FORMAT.test(text);
}

/** The canonical allowed origins; a 400 naming the first that is neither an origin nor a wildcard origin. */
export function validOrigins(origins: readonly string[]): string[] {
  if (origins.length > MAX_ORIGINS) throw new InvalidRequestError(`a site key allows at most ${MAX_ORIGINS} origins`, { fields: { origins: `must hold at most ${MAX_ORIGINS} origins` } });
  const canonical: string[] = [];
  for (const origin of origins) {
    const pattern = canonicalPattern(origin);
    if (pattern === undefined) {
      throw new InvalidRequestError(
        `origin "${origin}" must be an http(s) origin such as https://shop.example.com, or https://*.example.com`,
        { fields: { origins: `must each be an http(s) origin such as https://shop.example.com, or https://*.example.com (not "${origin}")` } },
      );
    }
    if (!canonical.includes(pattern)) canonical.push(pattern);
  }
  return canonical;
}

function validName(name: string | null): string | null {
  if (name === null) return null;
  if (name.length > LIMITS.name || !isStorableText(name)) {
    throw new InvalidRequestError(`site key name must be at most ${LIMITS.name} characters of text`, { fields: { name: `must be at most ${LIMITS.name} characters of text` } });
  }
  return name;
}

export class SiteKeysService {
  readonly #lastRecorded = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly clock: () => number = Date.now,
  ) {}

  async create(workspaceId: string, name: string | null = null, origins: readonly string[] = []): Promise<CreatedSiteKey> {
    const workspace = await this.store.operator.workspaces.findById(pathId(workspaceId, 'workspace'));
    if (workspace === undefined) throw new NotFoundError('workspace');
    const key: SiteKey = {
      id: newId(),
      workspace_id: workspace.id,
      name: validName(name),
      key: SITE_KEY_PREFIX + randomBase62(SECRET_LENGTH),
      origins: validOrigins(origins),
      created_at: now(),
      last_used_at: null,
      revoked_at: null,
    };
    await this.store.operator.siteKeys.insert(key);
    return { id: key.id, workspace_id: key.workspace_id, name: key.name, key: key.key, origins: key.origins, created_at: key.created_at };
  }

  /** The active site keys of a workspace, oldest first. */
  async list(workspaceId: string): Promise<ListedSiteKey[]> {
    const workspace = await this.store.operator.workspaces.findById(pathId(workspaceId, 'workspace'));
    if (workspace === undefined) throw new NotFoundError('workspace');
    const keys = await this.store.operator.siteKeys.listActive(workspace.id);
    return keys.map((key) => ({
      id: key.id,
      name: key.name,
      key: key.key,
      origins: key.origins,
      created_at: key.created_at,
      last_used_at: key.last_used_at,
    }));
  }

  /**
   * Every site key of a workspace, revoked ones too (with `revoked_at`), oldest
   * first: the dashboard's settings show what was revoked and when.
   */
  async listWithRevoked(workspaceId: WorkspaceId): Promise<SettingsSiteKey[]> {
    const keys = await this.store.operator.siteKeys.listAll(workspaceId);
    return keys.map((key) => ({
      id: key.id,
      name: key.name,
      key: key.key,
      origins: key.origins,
      created_at: key.created_at,
      last_used_at: key.last_used_at,
      revoked_at: key.revoked_at,
    }));
  }

  /**
   * Revokes a site key: the next event request with it is 401. Revoking a
   * revoked key answers its original revocation time. With `workspaceId`
   * (a dashboard acting for one workspace), a key of another workspace is
   * not found.
   */
  revoke(keyId: string, workspaceId?: WorkspaceId): Promise<{ id: string; revoked_at: string }> {
    const id = pathId(keyId, 'key');
    return this.store.transaction(async (repos) => {
      const key = await repos.siteKeys.findById(id);
      if (key === undefined || (workspaceId !== undefined && key.workspace_id !== workspaceId)) throw new NotFoundError('key');
      if (key.revoked_at !== null) return { id: key.id, revoked_at: key.revoked_at };
      const revokedAt = now();
      await repos.siteKeys.revoke(key.workspace_id, key.id, revokedAt);
      return { id: key.id, revoked_at: revokedAt };
    });
  }

  /** The active site key `key` is, if any. */
  async authenticate(key: string): Promise<ActiveSiteKey | undefined> {
    if (!looksLikeSiteKey(key)) return undefined;
    return this.store.operator.siteKeys.findActiveByKey(key);
  }

  /** Records a use of `key` unless this process recorded one in the last minute. */
  async recordUse(key: ActiveSiteKey, at = this.clock()): Promise<void> {
    const last = this.#lastRecorded.get(key.id);
    if (last !== undefined && at - last < USE_RECORD_INTERVAL_MS) return;
    this.#lastRecorded.set(key.id, at);
    const stamp = new Date(at).toISOString();
    await this.store.transaction((repos) => repos.siteKeys.recordUse(key.workspace_id, key.id, stamp));
  }
}
