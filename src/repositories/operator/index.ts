/**
 * The operator repositories over one handle (the database or an open
 * transaction): data that is not one workspace's.
 */
import type { Kysely } from 'kysely';
import type { Codec } from '../../db/codec.js';
import type { Schema } from '../../db/schema.js';
import { AccountsRepository } from './accounts.repository.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { MembershipsRepository } from './memberships.repository.js';
import { PeopleRepository } from './people.repository.js';
import { SessionsRepository } from './sessions.repository.js';
import { SignInFailuresRepository } from './sign-in-failures.repository.js';
import { WorkspacesRepository } from './workspaces.repository.js';

export interface OperatorRepositories {
  workspaces: WorkspacesRepository;
  apiKeys: ApiKeysRepository;
  people: PeopleRepository;
  accounts: AccountsRepository;
  sessions: SessionsRepository;
  signInFailures: SignInFailuresRepository;
  memberships: MembershipsRepository;
}

export function operatorRepositories(db: Kysely<Schema>, codec: Codec): OperatorRepositories {
  return {
    workspaces: new WorkspacesRepository(db, codec),
    apiKeys: new ApiKeysRepository(db, codec),
    people: new PeopleRepository(db, codec),
    accounts: new AccountsRepository(db, codec),
    sessions: new SessionsRepository(db, codec),
    signInFailures: new SignInFailuresRepository(db, codec),
    memberships: new MembershipsRepository(db, codec),
  };
}
