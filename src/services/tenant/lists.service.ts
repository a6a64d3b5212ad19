/**
 * Visitor lists (segments) of a workspace (CONTRACT C6.4): created, read,
 * changed and deleted through the API; a static list's members added and
 * removed by the API, a rule segment's kept by the intelligence worker.
 * A new or changed rule marks every identified visitor due, so the worker
 * evaluates it for all of them once; afterwards only visitors whose events
 * or identity change are evaluated again.
 */
import { emitEvent } from '../webhooks/events.js';
import { fireAlerts } from '../alerts/fire.js';
import { validateRule } from '../../intelligence/segments/validate-rule.js';
import type { WorkspaceStore } from '../../repositories/index.js';
import type { Page, PageResult } from '../../repositories/page.js';
import type { ListChanges } from '../../repositories/tenant/lists.repository.js';
import type { JsonObject } from '../../schemas/json.js';
import type { Identity, VisitorList } from '../../schemas/resources.js';
import { formatInstant } from '../../schemas/instants.js';
import { paletteColor } from '../../schemas/list-colors.js';
import { ForbiddenReferenceError, invalidFields, NotFoundError, ServiceError } from '../errors.js';
import { newId, pathId } from '../ids.js';

export interface NewList {
  name: string;
  description?: string | null;
  color?: string | null;
  rule?: JsonObject | null;
}

function checkRule(rule: JsonObject | null | undefined): void {
  if (rule === undefined || rule === null) return;
  const problems = validateRule(rule);
  if (Object.keys(problems).length > 0) throw invalidFields(problems);
}

/** The changes a PATCH asks for: `color: null` is the palette's color again. */
export type ListUpdate = Omit<ListChanges, 'color'> & { color?: string | null };

const listNotFound = () => new NotFoundError('list');

export class ListsService {
  constructor(private readonly store: WorkspaceStore) {}

  list(page: Page): Promise<PageResult<VisitorList>> {
    return this.store.repos.lists.list(page);
  }

  /** A page of lists, each with its member count (the dashboard's Lists page, C9.6). */
  async listWithCounts(page: Page): Promise<PageResult<VisitorList & { members: number }>> {
    const result = await this.store.repos.lists.list(page);
    const counts = await this.store.repos.listMembers.countByLists(result.items.map((list) => list.id));
    return { ...result, items: result.items.map((list) => ({ ...list, members: counts.get(list.id) ?? 0 })) };
  }

  /** A list with its rule and member count (the dashboard's list page, C9.6). */
  async detail(id: string): Promise<VisitorList & { rule: JsonObject | null; members: number }> {
    const list = await this.find(id);
    const counts = await this.store.repos.listMembers.countByLists([list.id]);
    return { ...list, members: counts.get(list.id) ?? 0 };
  }

  async get(id: string): Promise<VisitorList> {
    const { rule: _rule, ...list } = await this.find(id);
    return list;
  }

  async rule(id: string): Promise<JsonObject | null> {
    return (await this.find(id)).rule;
  }

  async create(input: NewList): Promise<VisitorList> {
    checkRule(input.rule);
    const id = newId();
    const list: VisitorList = {
      id,
      name: input.name,
      description: input.description ?? null,
      color: input.color ?? paletteColor(id),
      created_at: formatInstant(Date.now()),
    };
    await this.store.transaction(async (repos) => {
      await repos.lists.insert(list, input.rule ?? null);
      if (input.rule) await repos.intelligenceDue.markAllIdentified(list.created_at);
    });
    return list;
  }

  async update(id: string, update: ListUpdate): Promise<VisitorList> {
    checkRule(update.rule);
    const listId = this.listId(id);
    // C6.4: a list always has a color; null gives back the palette's
    const { color, ...rest } = update;
    const changes: ListChanges = color === undefined ? rest : { ...rest, color: color ?? paletteColor(listId) };
    await this.store.transaction(async (repos) => {
      if (!(await repos.lists.update(listId, changes))) throw listNotFound();
      if (changes.rule !== undefined) {
        // members of a rule segment are the rule's; a list made static keeps the members it had
        if (changes.rule !== null) {
          await repos.listMembers.removeAll(listId);
          await repos.intelligenceDue.markAllIdentified(formatInstant(Date.now()));
        }
      }
    });
    return this.get(listId);
  }

  async delete(id: string): Promise<void> {
    const listId = this.listId(id);
    await this.store.transaction(async (repos) => {
      await repos.listMembers.removeAll(listId);
      if (!(await repos.lists.delete(listId))) throw listNotFound();
    });
  }

  async identities(id: string, page: Page): Promise<PageResult<Identity>> {
    const list = await this.find(id);
    const identities = this.store.repos.identities;
    return this.store.repos.listMembers.page(list.id, page, (row) => identities.toIdentity(row as never));
  }

  /** Adds identities to a static list (C6.4); ids of other workspaces are refused whole (C3.7). */
  async addIdentities(id: string, identityIds: readonly string[]): Promise<number> {
    const list = await this.find(id);
    if (list.rule !== null) throw segmentConflict(list.id, 'takes');
    const unique = [...new Set(identityIds.map((identity) => identity.toLowerCase()))];
    return this.store.transaction(async (repos) => {
      const members = [];
      for (const identityId of unique) {
        const identity = await repos.identities.findById(identityId);
        if (identity === undefined) throw new ForbiddenReferenceError('identity_ids');
        members.push({ identity_id: identity.id, identity_created_at: identity.created_at });
      }
      const at = formatInstant(Date.now());
      const added = await repos.listMembers.add(list.id, members, at);
      for (const identity_id of added) await emitEvent(repos, 'list.member_added', { list_id: list.id, identity_id }, at);
      // alerts on a list entered (C10.3), with the membership
      await fireAlerts(
        repos,
        added.map((identityId) => ({ kind: 'segment_entered' as const, at, visitorId: null, identityId, companyId: null, country: null, listId: list.id, summary: `was added to ${list.name}` })),
      );
      return added.length;
    });
  }

  async removeIdentity(id: string, identityId: string): Promise<void> {
    const list = await this.find(id);
    if (list.rule !== null) throw segmentConflict(list.id, 'gives up');
    const identity = pathId(identityId, 'identity');
    if (!(await this.store.repos.identities.exists(identity))) throw new NotFoundError('identity');
    await this.store.transaction(async (repos) => {
      if ((await repos.listMembers.remove(list.id, identity)) > 0) await emitEvent(repos, 'list.member_removed', { list_id: list.id, identity_id: identity });
    });
  }

  private listId(id: string): string {
    return pathId(id, 'list');
  }

  private async find(id: string) {
    const list = await this.store.repos.lists.findById(this.listId(id));
    if (list === undefined) throw listNotFound();
    return list;
  }
}

/** 409: a rule segment's members follow its rule (C6.4); details name the list. */
function segmentConflict(listId: string, verb: 'takes' | 'gives up'): ServiceError {
  return new ServiceError('conflict', `the members of a rule segment follow its rule; only a list without a rule ${verb} identities by hand`, {
    conflict: 'list_is_segment',
    list_id: listId,
  });
}
