/**
 * Lead responses are written by hand (lead.serializer.ts), with JSON fields
 * copied from the store as text: the output must be exactly the JSON a
 * generic serializer would write for the same lead, for stored text and for
 * objects alike, including strings that need escaping.
 */
import { describe, expect, it } from 'vitest';
import { leadEnvelope, leadListEnvelope } from '../../src/http/serializers/lead.serializer.js';
import { StoredJson } from '../../src/schemas/json.js';
import type { Lead } from '../../src/schemas/resources.js';

const base = {
  id: '01a20190-2889-7649-a4b9-3d12a6e47169',
  visitor_id: '01a20190-287a-776b-a016-9d5ddcceeba5',
  workspace_id: '01a20190-2867-7009-9601-7cd04565ad58',
  code: 'quote " backslash \\ newline \n tab \t unicode é 😀 \u2028',
  source: null,
  created_at: '2026-11-21T22:11:00.630Z',
  updated_at: '2026-11-22T01:19:52.684Z',
  identity_id: null,
  session_id: '01a20190-2889-7649-a4b9-43243dc34cea',
  company_id: null,
};
const properties = { a: 1, nested: { list: [1, 'two', null, true], text: '"quoted" </script>' } };

describe('the lead serializer', () => {
  it('writes stored JSON text and objects to the same JSON as JSON.stringify, in the schema order', () => {
    const stored: Lead = {
      ...base,
      properties: new StoredJson(JSON.stringify(properties)),
      location: new StoredJson('{"city": "Lyon"}'),
      summary: null,
    };
    const plain: Lead = { ...base, properties, location: { city: 'Lyon' }, summary: { s: 1 } };
    for (const lead of [stored, plain]) {
      const written = leadEnvelope({ data: lead });
      expect(JSON.parse(written)).toEqual(JSON.parse(JSON.stringify({ data: lead })));
      expect(Object.keys(JSON.parse(written).data)).toEqual([
        'id',
        'visitor_id',
        'workspace_id',
        'code',
        'source',
        'created_at',
        'updated_at',
        'properties',
        'location',
        'identity_id',
        'session_id',
        'summary',
        'company_id',
      ]);
    }
    const list = leadListEnvelope({ data: [stored, plain], pagination: { limit: 2, offset: 5, total: 9 } });
    expect(JSON.parse(list)).toEqual(JSON.parse(JSON.stringify({ data: [stored, plain], pagination: { limit: 2, offset: 5, total: 9 } })));
    expect(leadListEnvelope({ data: [], pagination: { limit: 50, offset: 0, total: 0 } })).toBe(
      '{"data":[],"pagination":{"limit":50,"offset":0,"total":0}}',
    );
  });
});
