/**
 * The overview's traffic endpoint (CONTRACT C9.5): a range of UTC days and
 * an optional site in, the figures with the previous period's, one point
 * per day and the breakdowns out. The answer's shape is the service's
 * (services/tenant/traffic-overview.types.ts), which the dashboard imports.
 */
import { Type } from '@sinclair/typebox';
import { Nullable } from '../../schemas/fields.js';

export const DAY_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
const Day = (description: string) => Type.String({ pattern: DAY_PATTERN, description });

export const TrafficQuery = Type.Object(
  {
    from: Type.Optional(Day('the first day of the range (UTC, YYYY-MM-DD); with `to`; default: 29 days before today')),
    to: Type.Optional(Day('the last day of the range (UTC), on or after `from`, at most 365 days after it; default: today')),
    site: Type.Optional(Type.String({ minLength: 1, maxLength: 260, description: 'a site (host, as in the page URLs) to limit the figures to' })),
  },
  { additionalProperties: true },
);

const Figure = Type.Object({ value: Nullable(Type.Number()), previous: Nullable(Type.Number()) }, { additionalProperties: false });
const Breakdown = Type.Array(
  Type.Object(
    {
      value: Type.String({ description: "'' for none or unknown" }),
      sessions: Type.Integer(),
      bounce_rate: Type.Number({ minimum: 0, maximum: 1 }),
    },
    { additionalProperties: false },
  ),
);

export const TrafficEnvelope = Type.Object(
  {
    data: Type.Object(
      {
        from: Type.String(),
        to: Type.String(),
        previous: Type.Object({ from: Type.String(), to: Type.String() }, { additionalProperties: false }),
        site: Nullable(Type.String()),
        sites: Type.Array(Type.String()),
        figures: Type.Object(
          {
            visitors: Figure,
            sessions: Figure,
            page_views: Figure,
            bounce_rate: Figure,
            average_session_seconds: Figure,
            leads: Figure,
            identities: Figure,
          },
          { additionalProperties: false },
        ),
        days: Type.Array(
          Type.Object(
            {
              day: Type.String(),
              visitors: Type.Integer(),
              page_views: Type.Integer(),
              sessions: Type.Integer(),
              leads: Type.Integer(),
              by_source: Type.Record(Type.String(), Type.Integer()),
              identities: Type.Integer(),
            },
            { additionalProperties: false },
          ),
        ),
        lead_sources: Type.Array(Type.String(), { description: 'every lead source of the period, most leads first' }),
        breakdowns: Type.Object(
          {
            pages: Type.Array(
              Type.Object({ host: Type.String(), path: Type.String(), url: Type.String(), views: Type.Integer() }, { additionalProperties: false }),
            ),
            referrers: Breakdown,
            campaigns: Breakdown,
            countries: Breakdown,
            devices: Breakdown,
            browsers: Breakdown,
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
