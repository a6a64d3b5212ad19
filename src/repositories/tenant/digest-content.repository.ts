/**
 * What a digest tells (CONTRACT C10.4), read for one period [from, to): the
 * leads created in it that are qualified, the companies seen in it with the
 * best stored account scores (candidates: the digest scores them again,
 * services/intelligence/accounts.ts), and the identified people who came
 * back in it (a session started in it, found by the sessions' visitor
 * index, by a visitor first seen before it).
 */
import { sql } from 'kysely';
import { QUALIFIED_FROM } from '../../intelligence/score-thresholds.js';
import { TenantRepository } from './tenant-repository.js';

export interface DigestLead {
  id: string;
  score: number;
  code: string | null;
  created_at: string;
  person_name: string | null;
  person_email: string | null;
  company_name: string | null;
}

export interface DigestPerson {
  identity_id: string;
  name: string | null;
  email: string | null;
  company_name: string | null;
  first_seen: string;
  returned_at: string;
}

export class DigestContentRepository extends TenantRepository {
  /** The qualified leads created in [from, to), best score first, and how many there are. */
  async qualifiedLeads(from: string, to: string, limit: number): Promise<{ items: DigestLead[]; total: number }> {
    const ws = this.scope.workspaceId;
    const matching = this.scope.selectFrom('leads').where('leads.created_at', '>=', from).where('leads.created_at', '<', to).where('leads.score', '>=', QUALIFIED_FROM);
    const counted = await matching.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
    const rows = await matching
      .leftJoin('identities', (join) => join.onRef('identities.id', '=', 'leads.identity_id').on('identities.workspace_id', '=', ws))
      .leftJoin('companies', (join) => join.onRef('companies.id', '=', 'leads.company_id').on('companies.workspace_id', '=', ws))
      .select(['leads.id', 'leads.score', 'leads.code', 'leads.created_at', 'identities.name as person_name', 'identities.email as person_email', 'companies.name as company_name'])
      .orderBy('leads.score', 'desc')
      .orderBy('leads.created_at', 'desc')
      .orderBy('leads.id')
      .limit(limit)
      .execute();
    return { items: rows.map((row) => ({ ...row, score: Number(row.score) })), total: this.codec.count(counted.total) };
  }

  /** The ids of companies seen since `from`, by stored account score (none last). */
  async engagedCandidates(from: string, limit: number): Promise<string[]> {
    const rows = await this.scope
      .selectFrom('companies')
      .select('id')
      .where('last_seen', '>=', from)
      .orderBy((eb) => eb.fn.coalesce('account_score', eb.lit(0)), 'desc')
      .orderBy('last_seen', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Identified people whose visitor started a session in [from, to) and was first seen before `from`, latest first. */
  async returningPeople(from: string, to: string, limit: number): Promise<DigestPerson[]> {
    const ws = this.scope.workspaceId;
    const inPeriod = () =>
      this.scope
        .selectFrom('sessions')
        .where('sessions.visitor_id', '=', sql.ref<string>('visitors.id'))
        .where('sessions.started_at', '>=', from)
        .where('sessions.started_at', '<', to);
    const returned = inPeriod().select((eb) => eb.fn.max('sessions.started_at').as('at'));
    const rows = await this.scope
      .selectFrom('visitors')
      .innerJoin('identities', (join) => join.onRef('identities.id', '=', 'visitors.identity_id').on('identities.workspace_id', '=', ws))
      .leftJoin('companies', (join) => join.onRef('companies.id', '=', 'identities.company_id').on('companies.workspace_id', '=', ws))
      .select([
        'identities.id as identity_id',
        'identities.name',
        'identities.email',
        'companies.name as company_name',
        'visitors.first_seen',
        returned.as('returned_at'),
      ])
      // seen since `from` (a visit in the period), first seen before it, with a session started in it
      .where('visitors.last_seen', '>=', from)
      .where('visitors.first_seen', '<', from)
      .where((eb) => eb.exists(inPeriod().select('sessions.id')))
      .orderBy('returned_at', 'desc')
      .orderBy('identities.id')
      .limit(limit * 4)
      .execute();
    const people: DigestPerson[] = [];
    for (const row of rows) {
      if (people.some((person) => person.identity_id === row.identity_id)) continue;
      people.push({ ...row, returned_at: String(row.returned_at) });
      if (people.length === limit) break;
    }
    return people;
  }
}
