/**
 * Request and response schemas of the dashboard's site keys (CONTRACT C5.1,
 * C7.5): the keys as the settings show them (revoked ones too), each with
 * the `<script>` tag that installs the tracker with it. Hidden from the
 * public OpenAPI document like every /dashboard/api schema.
 */
import { Type } from '@sinclair/typebox';
import { LIMITS, Nullable, Timestamp, Uuid } from '../../schemas/fields.js';

const Opt = Type.Optional;

const SiteKeyFields = {
  id: Uuid(),
  name: Nullable(Type.String()),
  key: Type.String({ description: 'the publishable key (ll_site_…): public, it sits in every page that carries the tracker' }),
  origins: Type.Array(Type.String(), { description: 'origins allowed to send events with it; empty: any origin' }),
  created_at: Timestamp(),
  snippet: Type.String({ description: 'the <script> tag that installs the tracker with this key' }),
};

export const SettingsSiteKeySchema = Type.Object(
  { ...SiteKeyFields, last_used_at: Nullable(Timestamp()), revoked_at: Nullable(Timestamp()) },
  { additionalProperties: false },
);
export const SiteKeyListEnvelope = Type.Object({ data: Type.Array(SettingsSiteKeySchema) }, { additionalProperties: false });

export const SiteKeyCreateBody = Type.Object(
  {
    name: Opt(Nullable(Type.String({ maxLength: LIMITS.name }))),
    origins: Opt(Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 100 })),
  },
  { additionalProperties: false },
);
export const CreatedSiteKeyEnvelope = Type.Object(
  { data: Type.Object({ ...SiteKeyFields, workspace_id: Uuid() }, { additionalProperties: false }) },
  { additionalProperties: false },
);
