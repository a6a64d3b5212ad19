/**
 * Schemas of the dashboard's digest settings (CONTRACT C10.4): a member's
 * own `Email digest` and the workspace's time zone.
 */
import { Type } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../../schemas/fields.js';

const DigestChoice = Type.Union([Type.Literal('off'), Type.Literal('daily'), Type.Literal('weekly')], {
  description: 'off, daily (08:00 every day) or weekly (08:00 on Mondays), in the workspace time zone',
});

export const DigestBody = Type.Object({ digest: DigestChoice }, { additionalProperties: false });

export const DigestEnvelope = Type.Object(
  {
    data: Type.Object(
      {
        digest: DigestChoice,
        time_zone: Type.String(),
        next_at: Nullable(Timestamp()),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const TimeZoneBody = Type.Object({ time_zone: Type.String({ minLength: 1, maxLength: 64, description: 'an IANA time zone name such as Europe/Berlin, or UTC' }) }, { additionalProperties: false });

export const TimeZoneEnvelope = Type.Object({ data: Type.Object({ time_zone: Type.String() }, { additionalProperties: false }) }, { additionalProperties: false });
