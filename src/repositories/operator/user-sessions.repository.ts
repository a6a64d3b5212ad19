/**
 * All SQL about dashboard sessions (CONTRACT C7.3). A session is found by the
 * SHA-256 of the token its cookie carries, so it cannot filter by a
 * workspace: the session names the workspace (the statement audit's
 * allow-list, scripts/sql/examples.ts). The workspace it names is checked
 * against the person's memberships on every request (memberships.repository.ts).
 */
import type { Selectable } from 'kysely';
import type { UserSessionsTable } from '../../db/schema.js';
import { param } from '../../db/query-templates.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { OperatorRepository } from './operator-repository.js';

export type Session = Selectable<UserSessionsTable>;

export class UserSessionsRepository extends OperatorRepository {
  async insert(session: Session): Promise<void> {
    await this.db.insertInto('user_sessions').values(session).execute();
  }

  /** Runs on every dashboard request: a compiled template (query-templates.ts). */
  findByTokenHash(tokenHash: string): Promise<Session | undefined> {
    return this.template('userSessions.byTokenHash', () =>
      this.db.selectFrom('user_sessions').selectAll().where('token_hash', '=', param('hash')),
    ).executeTakeFirst(this.db, { hash: tokenHash });
  }

  /** Slides the session's end: written at most once an hour per session (sessions.service.ts). */
  async touch(id: string, lastSeenAt: string, expiresAt: string): Promise<void> {
    await this.db.updateTable('user_sessions').set({ last_seen_at: lastSeenAt, expires_at: expiresAt }).where('id', '=', id).execute();
  }

  async switchWorkspace(id: string, workspaceId: WorkspaceId): Promise<void> {
    await this.db.updateTable('user_sessions').set({ workspace_id: workspaceId }).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('user_sessions').where('id', '=', id).execute();
  }

  /** Ends every session of a person (a new password was set). */
  async deleteForUser(userId: string): Promise<void> {
    await this.db.deleteFrom('user_sessions').where('user_id', '=', userId).execute();
  }

  async deleteExpired(at: string): Promise<void> {
    await this.db.deleteFrom('user_sessions').where('expires_at', '<=', at).execute();
  }
}
