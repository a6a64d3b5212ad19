/**
 * Request and response schemas of the workspace user routes (CONTRACT C4.7).
 */
import { Type } from '@sinclair/typebox';
import { Ref } from '../../schemas/fields.js';
import { WorkspaceUserSchema } from '../../schemas/resources.js';
import { DataEnvelope, ListEnvelope, PageQuery } from './common.js';

export const UserListQuery = Type.Object(
  { ...PageQuery, role: Type.Optional(Type.String({ description: 'exact workspace role, e.g. admin, member, viewer' })) },
  { additionalProperties: true },
);

export const UserEnvelope = DataEnvelope(Ref(WorkspaceUserSchema));
export const UserListEnvelope = ListEnvelope(Ref(WorkspaceUserSchema));
