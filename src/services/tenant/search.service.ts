/**
 * The dashboard's search (CONTRACT C9.1): the people, companies and leads of
 * the workspace whose name, email, domain or code contains a text, at most
 * a few of each kind, newest first, as one list the search box shows.
 */
import type { WorkspaceStore } from '../../repositories/index.js';
import { InvalidRequestError } from '../errors.js';

/** how many of each kind a search shows */
export const SEARCH_PER_KIND = 5;

export interface SearchResult {
  type: 'person' | 'company' | 'lead';
  id: string;
  label: string;
  detail: string | null;
}

export class SearchService {
  constructor(private readonly store: WorkspaceStore) {}

  async search(text: string): Promise<SearchResult[]> {
    const wanted = text.trim();
    if ([...wanted].length < 2) throw new InvalidRequestError('q must hold at least 2 characters', { parameters: { q: 'must hold at least 2 characters besides spaces' } });
    const repo = this.store.repos.search;
    const [people, companies, leads] = await Promise.all([
      repo.people(wanted, SEARCH_PER_KIND),
      repo.companies(wanted, SEARCH_PER_KIND),
      repo.leads(wanted, SEARCH_PER_KIND),
    ]);
    return [
      ...people.map((person): SearchResult => ({
        type: 'person',
        id: person.id,
        label: person.name ?? person.email ?? 'Anonymous',
        detail: person.name === null ? null : person.email,
      })),
      ...companies.map((company): SearchResult => ({ type: 'company', id: company.id, label: company.name, detail: company.domain })),
      ...leads.map((lead): SearchResult => ({ type: 'lead', id: lead.id, label: lead.code ?? '', detail: null })),
    ];
  }
}
