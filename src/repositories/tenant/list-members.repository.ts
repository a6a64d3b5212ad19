/**
 * All SQL about the members of one workspace's visitor lists (CONTRACT
 * C6.4): identities added by the API to a static list, or by a rule's
 * evaluation to a rule segment. Read joined to identities, so a member whose
 * identity is gone is never listed nor counted.
 */
import type { Identity } from '../../schemas/resources.js';
import type { Page, PageResult } from '../page.js';
import { TenantRepository } from './tenant-repository.js';

export interface NewMember {
  identity_id: string;
  identity_created_at: string;
}

export class ListMembersRepository extends TenantRepository {
  /** Adds identities to a list (those already in it stay); answers the ids of those added. */
  async add(listId: string, members: readonly NewMember[], at: string): Promise<string[]> {
    if (members.length === 0) return [];
    const rows = await this.scope
      .insertInto(
        'list_members',
        members.map((member) => ({ list_id: listId, identity_id: member.identity_id, identity_created_at: member.identity_created_at, added_at: at })),
      )
      .onConflict((conflict) => conflict.doNothing())
      .returning('identity_id')
      .execute();
    return rows.map((row) => row.identity_id);
  }

  /** Puts one identity in several lists at once (a rule evaluation's changes); answers the lists it was added to. */
  async join(identityId: string, identityCreatedAt: string, listIds: readonly string[], at: string): Promise<string[]> {
    if (listIds.length === 0) return [];
    const rows = await this.scope
      .insertInto(
        'list_members',
        listIds.map((listId) => ({ list_id: listId, identity_id: identityId, identity_created_at: identityCreatedAt, added_at: at })),
      )
      .onConflict((conflict) => conflict.doNothing())
      .returning('list_id')
      .execute();
    return rows.map((row) => row.list_id);
  }

  /** Takes one identity out of several lists at once; answers the lists it left. */
  async leave(identityId: string, listIds: readonly string[]): Promise<string[]> {
    if (listIds.length === 0) return [];
    const rows = await this.scope
      .deleteFrom('list_members')
      .where('identity_id', '=', identityId)
      .where('list_id', 'in', listIds)
      .returning('list_id')
      .execute();
    return rows.map((row) => row.list_id);
  }

  async remove(listId: string, identityId: string): Promise<number> {
    const result = await this.scope
      .deleteFrom('list_members')
      .where('list_id', '=', listId)
      .where('identity_id', '=', identityId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Takes identities out of every list (erasure, C8.4); answers how many memberships went. */
  async removeIdentities(identityIds: readonly string[]): Promise<number> {
    if (identityIds.length === 0) return 0;
    const result = await this.scope.deleteFrom('list_members').where('identity_id', 'in', identityIds).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async removeAll(listId: string): Promise<void> {
    await this.scope.deleteFrom('list_members').where('list_id', '=', listId).execute();
  }

  /** The lists an identity is in. */
  async listsOf(identityId: string): Promise<string[]> {
    const rows = await this.scope.selectFrom('list_members').select('list_id').where('identity_id', '=', identityId).execute();
    return rows.map((row) => row.list_id);
  }

  /**
   * How many members each of these lists has (C9.6: lists show their
   * counts): an index-only count on the primary key's (workspace_id,
   * list_id) prefix, no table rows read. Erasure removes an identity's
   * memberships with it, so no member here lacks its identity.
   */
  async countByLists(listIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (listIds.length === 0) return counts;
    const rows = await this.scope
      .selectFrom('list_members')
      .select((eb) => ['list_id', eb.fn.countAll().as('members')])
      .where('list_id', 'in', listIds)
      .groupBy('list_id')
      .execute();
    for (const row of rows) counts.set(row.list_id, this.codec.count(row.members as never));
    return counts;
  }

  /** One page of a list's identities, newest first (C3.10), with the exact total. */
  page(listId: string, page: Page, toIdentity: (row: Record<string, unknown>) => Identity): Promise<PageResult<Identity>> {
    return this.scope.snapshot(async (scope) => {
      const members = scope
        .selectFrom('list_members')
        .innerJoin('identities', (join) =>
          join
            .onRef('identities.id', '=', 'list_members.identity_id')
            .on('identities.workspace_id', '=', scope.workspaceId),
        )
        .where('list_members.list_id', '=', listId);
      const counted = await members.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
      const after = page.after;
      const rows = await (
        after === undefined
          ? members
          : members.where((eb) =>
              eb(eb.refTuple('list_members.identity_created_at', 'list_members.identity_id'), '<', eb.tuple(after.at, after.id)),
            )
      )
        .selectAll('identities')
        .orderBy('list_members.identity_created_at', 'desc')
        .orderBy('list_members.identity_id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return { items: rows.map((row) => toIdentity(row as Record<string, unknown>)), total: this.codec.count(counted.total) };
    });
  }
}
