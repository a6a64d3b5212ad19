/**
 * The operator repositories over one handle (the database or an open
 * transaction): data that is not one workspace's.
 */
import type { Kysely } from 'kysely';
import type { Codec } from '../../db/codec.js';
import type { Schema } from '../../db/schema.js';
import { AccountsRepository } from './accounts.repository.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { EventPartitionsRepository } from './event-partitions.repository.js';
import { MembershipsRepository } from './memberships.repository.js';
import { PeopleRepository } from './people.repository.js';
import { ReverseDnsCacheRepository } from './reverse-dns-cache.repository.js';
import { ServerSecretsRepository } from './server-secrets.repository.js';
import { SignInFailuresRepository } from './sign-in-failures.repository.js';
import { SiteKeysRepository } from './site-keys.repository.js';
import { TrackingSaltsRepository } from './tracking-salts.repository.js';
import { UserSessionsRepository } from './user-sessions.repository.js';
import { WebhookQueueRepository } from './webhook-queue.repository.js';
import { AlertQueueRepository } from './alert-queue.repository.js';
import { DigestScheduleRepository } from './digest-schedule.repository.js';
import { WorkspacesRepository } from './workspaces.repository.js';

export interface OperatorRepositories {
  workspaces: WorkspacesRepository;
  apiKeys: ApiKeysRepository;
  people: PeopleRepository;
  accounts: AccountsRepository;
  userSessions: UserSessionsRepository;
  signInFailures: SignInFailuresRepository;
  memberships: MembershipsRepository;
  siteKeys: SiteKeysRepository;
  trackingSalts: TrackingSaltsRepository;
  eventPartitions: EventPartitionsRepository;
  serverSecrets: ServerSecretsRepository;
  webhookQueue: WebhookQueueRepository;
  alertQueue: AlertQueueRepository;
  digestSchedule: DigestScheduleRepository;
  reverseDnsCache: ReverseDnsCacheRepository;
}

export function operatorRepositories(db: Kysely<Schema>, codec: Codec): OperatorRepositories {
  return {
    workspaces: new WorkspacesRepository(db, codec),
    apiKeys: new ApiKeysRepository(db, codec),
    people: new PeopleRepository(db, codec),
    accounts: new AccountsRepository(db, codec),
    userSessions: new UserSessionsRepository(db, codec),
    signInFailures: new SignInFailuresRepository(db, codec),
    memberships: new MembershipsRepository(db, codec),
    siteKeys: new SiteKeysRepository(db, codec),
    trackingSalts: new TrackingSaltsRepository(db, codec),
    eventPartitions: new EventPartitionsRepository(db, codec),
    serverSecrets: new ServerSecretsRepository(db, codec),
    webhookQueue: new WebhookQueueRepository(db, codec),
    alertQueue: new AlertQueueRepository(db, codec),
    digestSchedule: new DigestScheduleRepository(db, codec),
    reverseDnsCache: new ReverseDnsCacheRepository(db, codec),
  };
}
