/**
 * Dashboard accounts (CONTRACT C7.2): people become members by invitation,
 * and set or reset their password through a one-time link. Accounts are the
 * spec's workspace users: one person, one password, whatever workspaces
 * they belong to. A link that sets a password is only handed to someone who
 * may take over the account: the operator (CLI), or a dashboard admin who
 * administers every workspace the person belongs to.
 */
import type { Store } from '../../repositories/index.js';
import type { Person } from '../../repositories/operator/people.repository.js';
import { LIMITS } from '../../schemas/fields.js';
import { formatInstant, now } from '../../schemas/instants.js';
import { normalizeEmail } from '../../schemas/normalize.js';
import { isStorableText } from '../../schemas/text-guards.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { InvalidRequestError, NotFoundError, ServiceError } from '../errors.js';
import { newId, pathId } from '../ids.js';
import { addMembers } from '../tenant/users.service.js';
import { hashToken, looksLikeToken, newToken } from './account-tokens.js';
import { checkPassword, hashPassword, passwordMatches } from './passwords.js';
import { isRole, ROLES, type Role } from './roles.js';

const DAY_MS = 86_400_000;
export const INVITE_LIFETIME_MS = 7 * DAY_MS;
export const RESET_LIFETIME_MS = DAY_MS;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export interface InviteInput {
  email: string;
  role: string;
  name?: string | null;
}

/** A link's secret and when it stops working; the caller makes the URL. */
export interface AccountLink {
  token: string;
  expires_at: string;
}

export interface Invitation {
  user_id: string;
  /** null when the person already has a password, or the caller may not set it */
  link: AccountLink | null;
}

export class AccountsService {
  constructor(
    private readonly store: Store,
    /** the clock links are made and judged by (tests move it) */
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Makes a person (new, or known by email) a member of the workspace with
   * `role`, and a link that sets their password when they have none. From
   * the dashboard (`admin` given), a person already a member is a conflict,
   * and the link is only made if the admin administers all their workspaces.
   */
  async invite(workspaceId: WorkspaceId, input: InviteInput, admin?: { userId: string }): Promise<Invitation> {
    const email = checkEmail(input.email);
    const role = checkRole(input.role);
    const name = input.name === undefined || input.name === null || input.name.trim() === '' ? null : input.name.trim();
    if (name !== null && (name.length > LIMITS.name || !isStorableText(name))) {
      throw new InvalidRequestError(`name must be at most ${LIMITS.name} characters`, { fields: { name: `must be at most ${LIMITS.name} characters` } });
    }
    const { operator } = this.store;
    const known = await operator.people.findByEmail(normalizeEmail(email));
    if (admin !== undefined && known !== undefined && (await operator.memberships.find(known.id, workspaceId)) !== undefined) {
      throw new ServiceError('conflict', `${known.email} is already a member of this workspace; change their role instead`, {
        conflict: 'already_member',
        fields: { email: 'is already a member of this workspace' },
        existing_id: known.id,
      });
    }
    const at = now();
    const [userId] = await this.store.forWorkspace(workspaceId).transaction((repos, people) =>
      addMembers(repos, people, [
        { id: newId(), email, name, avatar: null, username: null, language: null, created_at: at, workspace_role: role, joined_at: at },
      ]),
    );
    const id = userId as string;
    if ((await operator.accounts.passwordHash(id)) !== undefined) return { user_id: id, link: null };
    if (admin !== undefined && !(await this.administersAllOf(admin.userId, id))) return { user_id: id, link: null };
    return { user_id: id, link: await this.issue(id, 'invite', INVITE_LIFETIME_MS) };
  }

  /** A password reset link for the person with this email (the operator's `user reset-password`). */
  async resetLink(email: string): Promise<AccountLink> {
    const person = await this.store.operator.people.findByEmail(normalizeEmail(email.trim()));
    if (person === undefined) throw new ServiceError('not_found', 'no user has this email');
    return this.issue(person.id, 'reset', RESET_LIFETIME_MS);
  }

  /** A reset link for a member, asked for by an admin of the workspace who administers all the member's workspaces. */
  async resetLinkForMember(workspaceId: WorkspaceId, adminUserId: string, memberId: string): Promise<AccountLink> {
    const userId = pathId(memberId, 'user');
    if ((await this.store.operator.memberships.find(userId, workspaceId)) === undefined) throw new NotFoundError('user');
    if (!(await this.administersAllOf(adminUserId, userId))) {
      throw new ServiceError('forbidden', 'this person belongs to workspaces you do not administer; an operator can reset their password (leadlight user reset-password)');
    }
    return this.issue(userId, (await this.store.operator.accounts.passwordHash(userId)) === undefined ? 'invite' : 'reset', RESET_LIFETIME_MS);
  }

  /** What a link is for, while it works (the set-password page shows the email). */
  async inspect(token: string): Promise<{ email: string; kind: 'invite' | 'reset'; expires_at: string }> {
    const found = looksLikeToken(token) ? await this.store.operator.accounts.findUsableToken(hashToken(token), formatInstant(this.clock())) : undefined;
    const person = found === undefined ? undefined : await this.store.operator.people.findById(found.user_id);
    if (found === undefined || person === undefined) throw linkInvalid();
    return { email: person.email, kind: found.kind, expires_at: found.expires_at };
  }

  /** Sets the password a link was made for; the link and the person's other links stop working, and so do their sessions. */
  async redeem(token: string, password: string): Promise<string> {
    checkPassword(password);
    const passwordHash = await hashPassword(password);
    return this.store.transaction(async (repos) => {
      const at = formatInstant(this.clock());
      const found = looksLikeToken(token) ? await repos.accounts.findUsableToken(hashToken(token), at) : undefined;
      if (found === undefined) throw linkInvalid();
      await repos.accounts.setPassword(found.user_id, passwordHash, at);
      await repos.accounts.useTokensOf(found.user_id, at);
      await repos.userSessions.deleteForUser(found.user_id);
      return found.user_id;
    });
  }

  /** A signed-in person changes their password; every session of theirs ends (the caller starts a new one). */
  async changePassword(userId: string, current: string, next: string): Promise<void> {
    const stored = await this.store.operator.accounts.passwordHash(userId);
    if (!(await passwordMatches(stored, current))) {
      throw new InvalidRequestError('the current password is not correct', { fields: { current_password: 'is not correct' } });
    }
    const passwordHash = await hashPassword(next);
    await this.store.transaction(async (repos) => {
      await repos.accounts.setPassword(userId, passwordHash, now());
      await repos.userSessions.deleteForUser(userId);
    });
  }

  /** Sets a password directly (the demo admin of the first start). */
  async setPassword(userId: string, password: string): Promise<void> {
    await this.store.operator.accounts.setPassword(userId, await hashPassword(password), now());
  }

  /** The people among `userIds` who can sign in (have a password). */
  withPassword(userIds: readonly string[]): Promise<Set<string>> {
    return this.store.operator.accounts.withPassword(userIds);
  }

  findPerson(userId: string): Promise<Person | undefined> {
    return this.store.operator.people.findById(userId);
  }

  /** Whether `adminId` is an admin of every workspace `userId` belongs to. */
  private async administersAllOf(adminId: string, userId: string): Promise<boolean> {
    const { memberships } = this.store.operator;
    const administered = new Set(
      (await memberships.forUser(adminId)).filter((membership) => membership.role === 'admin').map((membership) => membership.workspace_id),
    );
    return (await memberships.forUser(userId)).every((membership) => administered.has(membership.workspace_id));
  }

  private async issue(userId: string, kind: 'invite' | 'reset', lifetimeMs: number): Promise<AccountLink> {
    const token = newToken();
    const createdAt = this.clock();
    const expiresAt = formatInstant(createdAt + lifetimeMs);
    await this.store.operator.accounts.insertToken({
      token_hash: hashToken(token),
      user_id: userId,
      kind,
      created_at: formatInstant(createdAt),
      expires_at: expiresAt,
      used_at: null,
    });
    return { token, expires_at: expiresAt };
  }
}

function linkInvalid(): ServiceError {
  return new ServiceError('not_found', 'this link is not valid: it was used already, has expired, or never existed');
}

function checkEmail(raw: string): string {
  const email = raw.trim();
  if (email.length > LIMITS.email || !EMAIL.test(email) || !isStorableText(email)) {
    throw new InvalidRequestError('email must be an email address', { fields: { email: 'must be an email address' } });
  }
  return email;
}

function checkRole(role: string): Role {
  if (!isRole(role)) throw new InvalidRequestError(`role must be one of ${ROLES.join(', ')}`, { fields: { role: `must be one of ${ROLES.join(', ')}` } });
  return role;
}

