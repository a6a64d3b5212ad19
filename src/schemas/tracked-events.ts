/**
 * What the tracker sends (CONTRACT C5.3): a batch `{key, events}` and each
 * event's fields and limits. The batch is judged whole before anything is
 * written: every problem of every event is reported, named by its place
 * (`events[3].url`), and one bad event refuses the batch.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { invalidFields, type InvalidRequestError } from '../services/errors.js';
import { JsonObjectSchema, LIMITS, Nullable, Uuid } from './fields.js';
import { createAjv, describeErrors, INSTANT_FORMAT, type SchemaError } from './validator.js';
import { describeJsonProblem, findFieldProblem, isStorableText } from './text-guards.js';

export const EVENT_TYPES = ['page', 'identify', 'track', 'conversion'] as const;
export type TrackedEventType = (typeof EVENT_TYPES)[number];
export const MAX_EVENTS = 100;
export const EVENT_LIMITS = { url: 2000, title: 500, referrer: 2000, name: 100, code: 255 } as const;

const Opt = Type.Optional;

export const TrackedEventSchema = Type.Object(
  {
    id: Uuid(),
    type: Type.Unsafe<TrackedEventType>({ type: 'string', enum: [...EVENT_TYPES] }),
    visitor_id: Opt(Uuid({ description: 'absent in cookieless mode' })),
    ts: Opt(Type.String({ format: INSTANT_FORMAT, maxLength: 64 })),
    url: Opt(Type.String({ maxLength: EVENT_LIMITS.url })),
    title: Opt(Type.String({ maxLength: EVENT_LIMITS.title })),
    referrer: Opt(Type.String({ maxLength: EVENT_LIMITS.referrer })),
    name: Opt(Type.String({ maxLength: EVENT_LIMITS.name })),
    properties: Opt(JsonObjectSchema()),
    code: Opt(Type.String({ maxLength: EVENT_LIMITS.code })),
    traits: Opt(
      Type.Object(
        {
          email: Opt(Type.String({ format: 'email', maxLength: LIMITS.email })),
          name: Opt(Nullable(Type.String({ maxLength: LIMITS.name }))),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: false },
);
export type TrackedEvent = Static<typeof TrackedEventSchema>;

/** Compiled on the first batch, so a process that takes no events never compiles it. */
let compiled: ValidateFunction<TrackedEvent> | undefined;
function eventValidator(): ValidateFunction<TrackedEvent> {
  compiled ??= createAjv(false).compile<TrackedEvent>(TrackedEventSchema);
  return compiled;
}

/** Fields an event of a type may not carry, and those it must. */
const ONLY_FOR: Record<string, readonly TrackedEventType[]> = {
  properties: ['track', 'conversion'],
  code: ['conversion'],
  traits: ['identify'],
};
const REQUIRED: Record<TrackedEventType, readonly string[]> = {
  page: ['url'],
  identify: ['traits'],
  track: ['name'],
  conversion: ['name'],
};

export function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function problemsOf(event: unknown): Record<string, string> {
  if (event === null || typeof event !== 'object' || Array.isArray(event)) return { '': 'must be a JSON object' };
  const problems: Record<string, string> = {};
  for (const [field, value] of Object.entries(event)) {
    // C3.8: an event's objects (properties, traits) are JSONB fields too, at most 32 KiB each
    const problem = isStorableText(field) ? findFieldProblem(value) : 'text';
    if (problem !== null) problems[field] = describeJsonProblem(problem);
  }
  const validateEvent = eventValidator();
  if (!validateEvent(event)) {
    for (const [field, reason] of Object.entries(describeErrors((validateEvent.errors ?? []) as SchemaError[]))) {
      problems[field === 'body' ? '' : field] ??= field === 'type' && !reason.startsWith('must be a') ? `must be one of ${EVENT_TYPES.join(', ')}` : reason;
    }
  }
  const fields = event as Record<string, unknown>;
  const type = fields.type as TrackedEventType;
  if (!EVENT_TYPES.includes(type)) return problems;
  for (const field of REQUIRED[type]) {
    if (fields[field] === undefined) problems[field] ??= `is required for ${type} events`;
  }
  for (const [field, types] of Object.entries(ONLY_FOR)) {
    if (fields[field] !== undefined && !types.includes(type)) problems[field] ??= `is not allowed for ${type} events`;
  }
  if (typeof fields.url === 'string' && !isWebUrl(fields.url)) problems.url ??= 'must be an absolute http or https URL';
  if (fields.name === '') problems.name ??= 'must not be empty';
  return problems;
}

const refused = (problems: Record<string, string>): InvalidRequestError => invalidFields(problems);

/** The `events` member of a batch: an array of 1 to 100 items (a 400 otherwise). */
export function eventList(events: unknown): unknown[] {
  if (!Array.isArray(events)) throw refused({ events: 'must be an array of events' });
  if (events.length === 0 || events.length > MAX_EVENTS) throw refused({ events: `must hold 1 to ${MAX_EVENTS} events (got ${events.length})` });
  return events;
}

/** The events of a batch, each valid; otherwise a 400 naming every problem (`events[3].url`). */
export function validateEvents(events: readonly unknown[]): TrackedEvent[] {
  const problems: Record<string, string> = {};
  events.forEach((event, index) => {
    for (const [field, reason] of Object.entries(problemsOf(event))) {
      problems[field === '' ? `events[${index}]` : `events[${index}].${field}`] = reason;
    }
  });
  if (Object.keys(problems).length > 0) throw refused(problems);
  return events as TrackedEvent[];
}

/** A 400 for members of a batch other than `key` and `events`. */
export function checkEnvelope(body: Record<string, unknown>): void {
  const unknown = Object.keys(body).filter((field) => field !== 'key' && field !== 'events');
  if (unknown.length > 0) throw refused(Object.fromEntries(unknown.map((field) => [field, 'is not a known field'])));
}
