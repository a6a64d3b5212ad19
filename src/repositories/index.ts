/**
 * The repositories of one store, and transactions that bind all of them to
 * one open transaction.
 */
import type { Kysely } from 'kysely';
import type { Codec } from '../db/codec.js';
import type { Database } from '../db/database.js';
import { GroupCommit } from '../db/group-commit.js';
import type { Copier } from '../db/postgres-copy.js';
import type { Schema } from '../db/schema.js';
import { ActivityRepository } from './activity.repository.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { CompaniesRepository } from './companies.repository.js';
import { IdentitiesRepository } from './identities.repository.js';
import { LeadsRepository } from './leads.repository.js';
import { ListsRepository } from './lists.repository.js';
import { PersonalitiesRepository } from './personalities.repository.js';
import { UsersRepository } from './users.repository.js';
import { WorkspacesRepository } from './workspaces.repository.js';

export interface Repositories {
  leads: LeadsRepository;
  identities: IdentitiesRepository;
  activity: ActivityRepository;
  personalities: PersonalitiesRepository;
  companies: CompaniesRepository;
  lists: ListsRepository;
  users: UsersRepository;
  workspaces: WorkspacesRepository;
  apiKeys: ApiKeysRepository;
}

/**
 * The repositories over `db`. Each is built when first used: a transaction
 * usually needs two or three of them, and a request runs one transaction.
 */
function createRepositories(db: Kysely<Schema>, codec: Codec, copy?: Copier): Repositories {
  const made: Partial<Repositories> = {};
  const lazy = <K extends keyof Repositories>(name: K, make: () => Repositories[K]) => ({
    get: () => (made[name] ??= make()),
    enumerable: true,
  });
  return Object.defineProperties({} as Repositories, {
    leads: lazy('leads', () => new LeadsRepository(db, codec, copy)),
    identities: lazy('identities', () => new IdentitiesRepository(db, codec, copy)),
    activity: lazy('activity', () => new ActivityRepository(db, codec, copy)),
    personalities: lazy('personalities', () => new PersonalitiesRepository(db, codec, copy)),
    companies: lazy('companies', () => new CompaniesRepository(db, codec, copy)),
    lists: lazy('lists', () => new ListsRepository(db, codec, copy)),
    users: lazy('users', () => new UsersRepository(db, codec, copy)),
    workspaces: lazy('workspaces', () => new WorkspacesRepository(db, codec, copy)),
    apiKeys: lazy('apiKeys', () => new ApiKeysRepository(db, codec, copy)),
  });
}

export class Store {
  readonly repos: Repositories;
  readonly #groupCommit: GroupCommit | undefined;

  constructor(readonly database: Database) {
    this.repos = createRepositories(database.db, database.codec);
    this.#groupCommit = database.kind === 'sqlite' ? new GroupCommit(database.db) : undefined;
  }

  /**
   * Runs `work` with repositories bound to one read-write transaction; it has
   * committed when the promise resolves. On SQLite, transactions that arrive
   * together share one commit (GroupCommit). `work` must not start another
   * transaction.
   */
  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    const { codec } = this.database;
    if (this.#groupCommit !== undefined) return this.#groupCommit.run((trx) => work(createRepositories(trx, codec)));
    return this.database.db.transaction().execute((trx) => work(createRepositories(trx, codec)));
  }

  /** A transaction for a bulk load (imports): on PostgreSQL, large inserts go through COPY. */
  bulkTransaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    const { codec } = this.database;
    return this.database.bulk((trx, copy) => work(createRepositories(trx, codec, copy)));
  }
}
