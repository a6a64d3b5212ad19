/**
 * Request and response schemas of the company routes.
 */
import { Type } from '@sinclair/typebox';
import { Ref } from '../../schemas/fields.js';
import { CompanySchema, IdentitySchema } from '../../schemas/resources.js';
import { DataEnvelope, ListEnvelope, PageQuery } from './common.js';

export const CompanyListQuery = Type.Object(
  {
    ...PageQuery,
    name: Type.Optional(Type.String({ description: 'case-insensitive substring of the name; % and _ are literal' })),
    domain: Type.Optional(Type.String({ description: 'exact domain, case-insensitive' })),
  },
  { additionalProperties: true },
);

export const CompanyEnvelope = DataEnvelope(Ref(CompanySchema));
export const CompanyListEnvelope = ListEnvelope(Ref(CompanySchema));
export const CompanyIdentitiesQuery = Type.Object({ ...PageQuery }, { additionalProperties: true });
export const CompanyIdentitiesEnvelope = ListEnvelope(Ref(IdentitySchema));
