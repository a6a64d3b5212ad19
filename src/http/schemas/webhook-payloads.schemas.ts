/**
 * The webhooks' payloads as the OpenAPI document describes them (OpenAPI 3.1
 * `webhooks`, CONTRACT C8.5): what Leadlight POSTs to a subscribed endpoint
 * for each event type, signed the Standard Webhooks way. One path item per
 * event type, so the reference and the typed client show each payload's
 * `data` exactly.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { Uuid } from '../../schemas/fields.js';
import { CompanySchema, IdentitySchema, LeadNoteSchema, LeadSchema } from '../../schemas/resources.js';
import { COMPANY_EXAMPLE, EXAMPLE_IDS, IDENTITY_EXAMPLE, LEAD_EXAMPLE, NOTE_EXAMPLE } from './examples.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** data of list.member_added and list.member_removed */
const ListMembership = Type.Object(
  { list_id: Uuid({ description: 'the visitor list' }), identity_id: Uuid({ description: 'the identity added or removed' }) },
  { additionalProperties: true },
);

/** data of identity.identified: the identity and the visitor just linked to it */
const Identified = Type.Object(
  {
    identity: Type.Unsafe(ref(IdentitySchema.$id as string)),
    visitor_id: Uuid({ description: 'the tracked visitor now known to be this identity' }),
  },
  { additionalProperties: true },
);

/** data of alert.triggered (services/alerts/model.ts, AlertFacts) */
const AlertFired = Type.Object(
  {
    alert: Type.Object({ id: Uuid(), name: Type.String() }, { additionalProperties: true }),
    trigger: Type.Object({ type: Type.String() }, { additionalProperties: true, description: 'the alert\'s trigger' }),
    subject: Type.String({ description: 'identity:<id>, company:<id> or visitor:<id>' }),
    summary: Type.String({ description: 'what happened, in one line' }),
    person: Type.Union([Type.Null(), Type.Object({ id: Uuid(), name: Type.Union([Type.String(), Type.Null()]), email: Type.Union([Type.String(), Type.Null()]) })]),
    company: Type.Union([Type.Null(), Type.Object({ id: Uuid(), name: Type.String(), domain: Type.Union([Type.String(), Type.Null()]) })]),
    visitor_id: Type.Union([Type.String(), Type.Null()]),
    country: Type.Union([Type.String(), Type.Null()]),
    score: Type.Union([Type.Integer(), Type.Null()]),
    reasons: Type.Array(Type.String()),
    pages: Type.Array(Type.String(), { description: 'the latest pages viewed, newest first' }),
    link: Type.Union([Type.String(), Type.Null()], { description: "the dashboard's page of the person or company" }),
    occurred_at: Type.String(),
    test: Type.Boolean({ description: 'true for POST /api/v1/alerts/{id}/test' }),
  },
  { additionalProperties: true },
);

const ALERT_FIRED_EXAMPLE = {
  alert: { id: '0190f6a2-a1b2-7c3d-8e4f-5a6b7c8d9e0f', name: 'Pricing page by a known company' },
  trigger: { type: 'page_viewed', path: '/pricing*' },
  subject: `identity:${EXAMPLE_IDS.identity}`,
  summary: 'viewed /pricing',
  person: { id: EXAMPLE_IDS.identity, name: 'Ada Lovelace', email: 'ada@acme.example' },
  company: { id: EXAMPLE_IDS.company, name: 'Acme', domain: 'acme.example' },
  visitor_id: EXAMPLE_IDS.visitor,
  country: 'GB',
  score: 72,
  reasons: ['Viewed pricing 3 times', 'Company in your ideal industries'],
  pages: ['/pricing', '/docs/getting-started', '/'],
  link: `https://leadlight.acme.example/identities/${EXAMPLE_IDS.identity}`,
  occurred_at: '2026-03-02T10:01:00.000Z',
  test: false,
};

/** data of note.created: the note and the lead it is on */
const NoteData = Type.Object(
  { ...LeadNoteSchema.properties, lead_id: Uuid({ description: 'the lead the note is on' }) },
  { additionalProperties: true },
);

/** data of webhook.test */
const TestData = Type.Object(
  { webhook_id: Uuid({ description: 'the endpoint tested' }), message: Type.String() },
  { additionalProperties: true },
);

interface WebhookEvent {
  type: string;
  operationId: string;
  summary: string;
  description: string;
  data: TSchema | { $ref: string };
  example: unknown;
}

const MEMBERSHIP_EXAMPLE = { list_id: EXAMPLE_IDS.list, identity_id: EXAMPLE_IDS.identity };

export const WEBHOOK_EVENTS: WebhookEvent[] = [
  {
    type: 'lead.created',
    operationId: 'leadCreatedWebhook',
    summary: 'A lead was created',
    description: 'Sent when a lead is created, through the API, an import or a conversion on a tracked site. `data` is the new lead.',
    data: ref(LeadSchema.$id as string),
    example: LEAD_EXAMPLE,
  },
  {
    type: 'lead.updated',
    operationId: 'leadUpdatedWebhook',
    summary: 'A lead was updated',
    description: 'Sent when a lead changes. `data` is the lead as it is after the change.',
    data: ref(LeadSchema.$id as string),
    example: LEAD_EXAMPLE,
  },
  {
    type: 'lead.deleted',
    operationId: 'leadDeletedWebhook',
    summary: 'A lead was deleted',
    description: 'Sent when a lead is deleted. `data` is the lead as it was.',
    data: ref(LeadSchema.$id as string),
    example: LEAD_EXAMPLE,
  },
  {
    type: 'identity.created',
    operationId: 'identityCreatedWebhook',
    summary: 'An identity was created',
    description: 'Sent when an identity is created, through the API or by a tracked visitor identifying. `data` is the identity.',
    data: ref(IdentitySchema.$id as string),
    example: IDENTITY_EXAMPLE,
  },
  {
    type: 'identity.updated',
    operationId: 'identityUpdatedWebhook',
    summary: 'An identity was updated',
    description: 'Sent when an identity changes. `data` is the identity as it is after the change.',
    data: ref(IdentitySchema.$id as string),
    example: IDENTITY_EXAMPLE,
  },
  {
    type: 'identity.identified',
    operationId: 'identityIdentifiedWebhook',
    summary: 'A visitor was identified',
    description:
      'Sent when a tracked visitor is identified as a person (an `identify` with an email): the moment an anonymous visitor becomes known. `data` is the identity and the visitor linked to it.',
    data: Identified,
    example: { identity: IDENTITY_EXAMPLE, visitor_id: EXAMPLE_IDS.visitor },
  },
  {
    type: 'list.member_added',
    operationId: 'listMemberAddedWebhook',
    summary: 'An identity joined a list',
    description: 'Sent when an identity is added to a visitor list, by hand or by the list\'s rule.',
    data: ListMembership,
    example: MEMBERSHIP_EXAMPLE,
  },
  {
    type: 'list.member_removed',
    operationId: 'listMemberRemovedWebhook',
    summary: 'An identity left a list',
    description: 'Sent when an identity is removed from a visitor list, by hand or by the list\'s rule.',
    data: ListMembership,
    example: MEMBERSHIP_EXAMPLE,
  },
  {
    type: 'company.created',
    operationId: 'companyCreatedWebhook',
    summary: 'A company was found',
    description:
      'Sent when lead intelligence makes a company: from a business email\'s domain, or from the network of a visitor (CONTRACT C6.1). `data` is the company as it was made: its name made from the domain or the network, the other fields empty until enrichment fills them (`company.updated`).',
    data: ref(CompanySchema.$id as string),
    example: { ...COMPANY_EXAMPLE, name: 'Acme', description: '', employees: '', main_industry: '' },
  },
  {
    type: 'company.updated',
    operationId: 'companyUpdatedWebhook',
    summary: 'A company was enriched',
    description:
      'Sent when enrichment writes a company\'s fields from its website or the data provider (CONTRACT C6.7): at most once a month per company, never over what a person or a client wrote. `data` is the company as it is after the change.',
    data: ref(CompanySchema.$id as string),
    example: COMPANY_EXAMPLE,
  },
  {
    type: 'alert.triggered',
    operationId: 'alertTriggeredWebhook',
    summary: 'An alert fired',
    description:
      'Sent to the webhook an alert names as its destination (`{"type":"webhook","webhook_id":…}`, CONTRACT C10.2) when the alert fires: at most once per person (or company) within its cooldown. `data` tells who, which company, what happened, the score and its reasons, the latest pages and a link to the dashboard.',
    data: AlertFired,
    example: ALERT_FIRED_EXAMPLE,
  },
  {
    type: 'note.created',
    operationId: 'noteCreatedWebhook',
    summary: 'A note was added to a lead',
    description:
      'Sent when a dashboard user or an API key adds a note to a lead (`POST /api/v1/leads/{id}/notes`, CONTRACT C9.3). `data` is the note as the API shows it, with the `lead_id` it is on.',
    data: NoteData,
    example: { ...NOTE_EXAMPLE, lead_id: EXAMPLE_IDS.lead },
  },
  {
    type: 'webhook.test',
    operationId: 'webhookTestWebhook',
    summary: 'A test event',
    description: 'Sent to one endpoint when you ask for it (`POST /api/v1/webhooks/{id}/test`), to check that it receives and verifies deliveries.',
    data: TestData,
    example: { webhook_id: EXAMPLE_IDS.webhook, message: 'a test event from Leadlight' },
  },
];

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The message id: the same on every attempt of one event, so a receiver can drop the duplicates of at-least-once delivery.',
    schema: { type: 'string' },
    example: 'msg_2bKq9Xv4Lw8Tz1Nc',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds when this attempt was signed; refuse messages far from your clock (replays).',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: '1772555998',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint\'s `whsec_` secret (Standard Webhooks; verify with the `standardwebhooks` package).',
    schema: { type: 'string' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
];

/** The `webhooks` member of the OpenAPI document. */
export function webhooksDocument(): Record<string, unknown> {
  return Object.fromEntries(
    WEBHOOK_EVENTS.map((event) => [
      event.type,
      {
        post: {
          operationId: event.operationId,
          tags: ['webhooks'],
          summary: event.summary,
          description: `${event.description}\n\nDelivered at least once, with the same \`webhook-id\` on every attempt; answer 2xx within 10 seconds, anything else is retried with exponential backoff for at least 24 hours.`,
          security: [],
          parameters: SIGNATURE_HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['type', 'timestamp', 'data'],
                  properties: {
                    type: { type: 'string', const: event.type, description: 'the event type' },
                    timestamp: { type: 'string', format: 'date-time', description: 'when the change happened' },
                    data: event.data,
                  },
                },
                example: { type: event.type, timestamp: '2026-03-03T16:40:12.087Z', data: event.example },
              },
            },
          },
          responses: {
            '200': { description: 'Any 2xx within 10 seconds: delivered. Anything else, or no answer, is retried.' },
            '400': { description: 'Refused (for example, a signature that does not verify): retried like any failure.' },
          },
        },
      },
    ]),
  );
}
