/**
 * Request and response schemas of a lead's notes (CONTRACT C9.3), shared by
 * /api/v1 and /dashboard/api.
 */
import { Type } from '@sinclair/typebox';
import { Ref } from '../../schemas/fields.js';
import { LeadNoteSchema } from '../../schemas/resources.js';
import { DataEnvelope, ListEnvelope, PageQuery } from './common.js';

/** the longest note, in characters (README: "Leads: order, notes and the lead page") */
export const NOTE_BODY_MAX = 10_000;

export const NoteCreateBody = Type.Object(
  {
    body: Type.String({ minLength: 1, maxLength: NOTE_BODY_MAX, description: `the text of the note, 1 to ${NOTE_BODY_MAX.toLocaleString('en')} characters` }),
  },
  { additionalProperties: false },
);

export const NoteListQuery = Type.Object({ ...PageQuery }, { additionalProperties: true });

export const NoteEnvelope = DataEnvelope(Ref(LeadNoteSchema));
export const NoteListEnvelope = ListEnvelope(Ref(LeadNoteSchema));
