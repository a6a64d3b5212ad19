/**
 * The shapes of company rules (CONTRACT C6.8) on /api/v1 and in the
 * dashboard's API: the rule as answered, and the body that makes one. The
 * match is an object with one of `asn`, `cidr`, `domain`; which one and
 * whether its value is one are told by the service, naming the field.
 */
import { Type } from '@sinclair/typebox';
import { Nullable } from '../../schemas/fields.js';
import { MAX_ASN } from '../../intelligence/company-rules.js';

export const RuleMatchSchema = Type.Object(
  {
    asn: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ASN, description: 'an AS number: visits from its networks' })),
    cidr: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'an IPv4 or IPv6 range, such as 203.0.113.0/24: visits from its addresses' })),
    domain: Type.Optional(
      Type.String({ minLength: 1, maxLength: 253, description: 'a domain, such as acme.com: emails and reverse DNS names at it and its subdomains' }),
    ),
  },
  { additionalProperties: false, description: 'exactly one of asn, cidr or domain' },
);

export const CompanyRuleSchema = Type.Object(
  {
    id: Type.String(),
    match: RuleMatchSchema,
    company_id: Nullable(Type.String({ description: 'the company visits that match name; null for a rule that marks them as no company' })),
    not_a_company: Type.Boolean({ description: 'true: visits that match name no company' }),
    created_at: Type.String(),
  },
  { additionalProperties: false },
);

export const CompanyRuleCreateBody = Type.Object(
  {
    match: RuleMatchSchema,
    company_id: Type.Optional(Type.String({ maxLength: 64, description: 'a company of your workspace' })),
    not_a_company: Type.Optional(Type.Boolean({ description: 'true instead of company_id: visits that match name no company' })),
  },
  { additionalProperties: false },
);
