/**
 * Dashboard sessions (CONTRACT C7.3). Signing in checks the password and the
 * throttle: ten failed sign-ins for an account or for an address within 15
 * minutes refuse further tries for 15 minutes, counted in the database so
 * every process agrees, and an unknown email is answered exactly like a
 * wrong password, after the same work. A session is a random token whose
 * SHA-256 is stored; it lasts 30 days from its last use (the end is moved
 * at most once an hour, so reading the dashboard does not write on every
 * request), and it looks at one workspace of its person at a time: the
 * membership is checked on every request, so a removed member is out at once.
 */
import type { Store } from '../../repositories/index.js';
import type { Person } from '../../repositories/operator/people.repository.js';
import type { Session } from '../../repositories/operator/user-sessions.repository.js';
import { formatInstant } from '../../schemas/instants.js';
import { normalizeEmail } from '../../schemas/normalize.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { ServiceError } from '../errors.js';
import { newId } from '../ids.js';
import { csrfTokenOf, hashToken, looksLikeToken, newToken } from './account-tokens.js';
import { passwordMatches, standInHash } from './passwords.js';
import { effectiveRole, type Role } from './roles.js';

const MINUTE_MS = 60_000;
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * MINUTE_MS;
/** how often a session in use has its end moved */
const TOUCH_INTERVAL_MS = 60 * MINUTE_MS;
export const THROTTLE_WINDOW_MS = 15 * MINUTE_MS;
export const THROTTLE_FAILURES = 10;
export const THROTTLE_LOCK_MS = 15 * MINUTE_MS;

export interface SignedIn {
  /** the cookie's secret: returned once, stored as a hash */
  token: string;
  csrf_token: string;
  expires_at: string;
  user_id: string;
  workspace_id: WorkspaceId;
}

/** The dashboard request's person, workspace and role, as its session says and its membership confirms. */
export interface ActiveSession {
  id: string;
  person: Person;
  workspaceId: WorkspaceId;
  role: Role;
  csrfToken: string;
  expiresAt: string;
  /** the end was moved by this request: the cookie is sent again */
  renewed: boolean;
}

/** the id looked up for an unknown email: no person has it */
const NO_PERSON = '00000000-0000-0000-0000-000000000000';

const invalidCredentials = () => new ServiceError('unauthorized', 'Invalid email or password');

/** When the failures of one key (oldest first) lock it: ten within the window lock for 15 minutes from the tenth. */
export function lockedUntil(failures: readonly number[]): number {
  let until = 0;
  for (let index = THROTTLE_FAILURES - 1; index < failures.length; index += 1) {
    const last = failures[index] as number;
    if (last - (failures[index - THROTTLE_FAILURES + 1] as number) <= THROTTLE_WINDOW_MS) until = Math.max(until, last + THROTTLE_LOCK_MS);
  }
  return until;
}

export class SessionsService {
  constructor(
    private readonly store: Store,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Makes the stand-in hash before the first sign-in, so that the first unknown email does not also pay for making it. */
  async prepare(): Promise<void> {
    await standInHash();
  }

  async signIn(email: string, password: string, address: string): Promise<SignedIn> {
    const { operator } = this.store;
    const normalized = normalizeEmail(email.trim());
    const keys = [`account:${normalized}`, `address:${address}`];
    const at = this.clock();
    await this.refuseWhileLocked(keys, at);
    const person = await operator.people.findByEmail(normalized);
    // the same lookups and one verification of the same cost whether or not the email is known (C7.3)
    const stored = await operator.accounts.passwordHash(person?.id ?? NO_PERSON);
    const matches = await passwordMatches(stored, password);
    if (person === undefined || !matches) {
      await operator.signInFailures.record(keys, formatInstant(at));
      await operator.signInFailures.prune(formatInstant(at - 2 * (THROTTLE_WINDOW_MS + THROTTLE_LOCK_MS)));
      throw invalidCredentials();
    }
    await operator.signInFailures.clear(keys[0] as string);
    return this.start(person.id);
  }

  /** A new session of a person, looking at their oldest workspace (or `preferred`, when a member of it). */
  async start(userId: string, preferred?: string): Promise<SignedIn> {
    const { operator } = this.store;
    const memberships = await operator.memberships.forUser(userId);
    const membership = memberships.find((entry) => entry.workspace_id === preferred) ?? memberships[0];
    if (membership === undefined) throw new ServiceError('forbidden', 'this account is not a member of any workspace');
    const token = newToken();
    const at = this.clock();
    const expiresAt = formatInstant(at + SESSION_LIFETIME_MS);
    await operator.userSessions.insert({
      id: newId(),
      token_hash: hashToken(token),
      user_id: userId,
      workspace_id: membership.workspace_id,
      created_at: formatInstant(at),
      last_seen_at: formatInstant(at),
      expires_at: expiresAt,
    });
    return { token, csrf_token: csrfTokenOf(token), expires_at: expiresAt, user_id: userId, workspace_id: membership.workspace_id };
  }

  /** The session a cookie's token names, if it is still valid and its person still a member of some workspace. */
  async authenticate(token: string): Promise<ActiveSession | undefined> {
    if (!looksLikeToken(token)) return undefined;
    const { operator } = this.store;
    const session = await operator.userSessions.findByTokenHash(hashToken(token));
    if (session === undefined) return undefined;
    const at = this.clock();
    if (Date.parse(session.expires_at) <= at) {
      await operator.userSessions.delete(session.id);
      return undefined;
    }
    const membership = await this.membershipOf(session);
    const person = membership === undefined ? undefined : await operator.people.findById(session.user_id);
    if (membership === undefined || person === undefined) {
      await operator.userSessions.delete(session.id);
      return undefined;
    }
    let expiresAt = session.expires_at;
    const renewed = at - Date.parse(session.last_seen_at) >= TOUCH_INTERVAL_MS;
    if (renewed) {
      expiresAt = formatInstant(at + SESSION_LIFETIME_MS);
      await operator.userSessions.touch(session.id, formatInstant(at), expiresAt);
    }
    return {
      id: session.id,
      person,
      workspaceId: membership.workspace_id,
      role: effectiveRole(membership.role),
      csrfToken: csrfTokenOf(token),
      expiresAt,
      renewed,
    };
  }

  /** Points the session at another workspace of its person; not a member: 404, as if it did not exist. */
  async switchWorkspace(session: ActiveSession, workspaceId: string): Promise<WorkspaceId> {
    const membership = await this.store.operator.memberships.find(session.person.id, workspaceId.toLowerCase());
    if (membership === undefined) throw new ServiceError('not_found', 'workspace not found');
    await this.store.operator.userSessions.switchWorkspace(session.id, membership.workspace_id);
    return membership.workspace_id;
  }

  /** The workspaces the session's person may switch to. */
  workspacesOf(userId: string) {
    return this.store.operator.memberships.forUser(userId);
  }

  async signOut(sessionId: string): Promise<void> {
    await this.store.operator.userSessions.delete(sessionId);
  }

  /** The membership the session looks at; when it ended, the person's oldest other one (the session follows). */
  private async membershipOf(session: Session): Promise<{ workspace_id: WorkspaceId; role: string } | undefined> {
    const { memberships, userSessions } = this.store.operator;
    const current = await memberships.find(session.user_id, session.workspace_id);
    if (current !== undefined) return current;
    const [other] = await memberships.forUser(session.user_id);
    if (other === undefined) return undefined;
    await userSessions.switchWorkspace(session.id, other.workspace_id);
    return other;
  }

  private async refuseWhileLocked(keys: readonly string[], at: number): Promise<void> {
    const rows = await this.store.operator.signInFailures.since(keys, formatInstant(at - THROTTLE_WINDOW_MS - THROTTLE_LOCK_MS));
    let until = 0;
    for (const key of keys) until = Math.max(until, lockedUntil(rows.filter((row) => row.key === key).map((row) => Date.parse(row.at))));
    if (until > at) {
      const retryAfter = Math.max(1, Math.ceil((until - at) / 1000));
      throw new ServiceError('rate_limit_exceeded', `Too many failed sign-ins; try again in ${Math.ceil(retryAfter / 60)} minutes`, {
        retry_after: retryAfter,
      });
    }
  }
}
