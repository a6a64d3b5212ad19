/**
 * Request and response schemas of the visitor list routes.
 */
import { Type } from '@sinclair/typebox';
import { Ref } from '../../schemas/fields.js';
import { VisitorListSchema } from '../../schemas/resources.js';
import { ListEnvelope, PageQuery } from './common.js';

export const VisitorListQuery = Type.Object({ ...PageQuery }, { additionalProperties: true });
export const VisitorListListEnvelope = ListEnvelope(Ref(VisitorListSchema));
