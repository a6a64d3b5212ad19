/**
 * Exports through the API (CONTRACT C11.5) on both stores, over real HTTP:
 * every row the list holds with the same filters, across chunk boundaries
 * (exactly two chunks, and a remainder), in NDJSON and CSV; CSV quoting edges,
 * UTF-8 and the formula-injection prefix; a bad format is 400; one export is
 * one request of the rate limit; the companies' export reads one statement a
 * chunk and never counts the list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/repositories/index.js';
import { ExportService } from '../../src/services/tenant/export/export.service.js';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { recordingDatabase } from '../helpers/statement-count.js';
import { importRows, seedCompanies } from '../helpers/fixtures.js';
import { storeKinds } from '../helpers/stores.js';

/** A strict RFC 4180 reader: rows of cells; quoted cells may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += char;
  }
  expect(cell).toBe('');
  expect(row).toEqual([]);
  return rows;
}

describe.each(storeKinds())('export on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.listen();
    ws = await t.createWorkspace('Export A');
    const other = await t.createWorkspace('Export B');
    // 2,000 leads: exactly two chunks of 1,000; 500 of them from one source
    const at = Date.parse('2026-01-01T00:00:00.000Z');
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      code: `E-${i}`,
      source: i % 4 === 0 ? 'ads' : 'web',
      created_at: new Date(at + Math.floor(i / 3) * 1000).toISOString(),
      properties: { i },
    }));
    await importRows(t, ws.id, 'leads', rows);
    await importRows(t, other.id, 'leads', rows.slice(0, 10));
  });
  afterAll(async () => t?.close());

  const get = async (path: string, workspace = ws) => {
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${workspace.production.key}` } });
    return { response, text: await response.text() };
  };

  async function listed(path: string): Promise<{ id: string }[]> {
    const items: { id: string }[] = [];
    let url: string | null = `${base}${path}`;
    while (url !== null) {
      const response: Response = await fetch(url, { headers: { authorization: `Bearer ${ws.production.key}` } });
      items.push(...((await response.json()) as { data: { id: string }[] }).data);
      url = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1] ?? null;
    }
    return items;
  }

  it('C11.5: NDJSON holds every lead of the list, in its order, as the list shows them; filters apply', async () => {
    for (const [exportPath, listPath, count] of [
      ['/api/v1/leads/export', '/api/v1/leads?limit=100', 2000],
      ['/api/v1/leads/export?format=ndjson&source=ads', '/api/v1/leads?limit=100&source=ads', 500],
      ['/api/v1/leads/export?created_after=2026-01-01T00:05:00Z', '/api/v1/leads?limit=100&created_after=2026-01-01T00:05:00Z', 2000 - 903],
    ] as const) {
      const { response, text } = await get(exportPath);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
      const lines = text.split('\n');
      expect(lines.pop()).toBe('');
      const exported = lines.map((line) => JSON.parse(line) as { id: string });
      expect(exported).toHaveLength(count);
      expect(exported).toEqual(await listed(listPath));
    }
  });

  it('C11.5: CSV has a header row and a row per lead, UTF-8, JSON fields as JSON text, null as an empty cell', async () => {
    const { response, text } = await get('/api/v1/leads/export?format=csv&source=ads');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="leads.csv"');
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual(['id', 'visitor_id', 'workspace_id', 'code', 'source', 'created_at', 'updated_at', 'properties', 'location', 'identity_id', 'session_id', 'summary', 'company_id']);
    expect(rows).toHaveLength(500);
    const listed = (await t.as(ws, { method: 'GET', url: '/api/v1/leads?source=ads&limit=1' })).json().data[0];
    // JSON fields are the stored JSON text (PostgreSQL's jsonb writes it with spaces)
    const row = rows[0]!.map((cell, index) => (index === 7 || index === 8 ? JSON.parse(cell) : cell));
    expect(row).toEqual([listed.id, listed.visitor_id, ws.id, listed.code, 'ads', listed.created_at, listed.updated_at, listed.properties, {}, '', '', '', '']);
  });

  it('C11.5: CSV escaping edges and the formula-injection prefix (= + - @, tab, CR)', async () => {
    const names = [
      'plain',
      'comma, inc',
      'say "hi"',
      'two\nlines',
      'crlf\r\nend',
      '=HYPERLINK("http://x")',
      '+1 555',
      '-2+3',
      '@SUM(A1)',
      '\tTabbed',
      'Zürich 🚀',
      ' spaced ',
    ];
    await seedCompanies(t, ws.id, names.map((name) => ({ name })));
    const { text } = await get('/api/v1/companies/export?format=csv');
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual(['id', 'name', 'domain', 'description', 'employees', 'main_industry', 'created_at']);
    const exported = rows.map((row) => row[1]);
    const expected = names.map((name) => (/^[=+\-@\t\r]/.test(name) ? `'${name}` : name));
    expect(exported.sort()).toEqual(expected.sort());
    expect(text).toContain('"say ""hi"""');
    expect(text).toContain("'=HYPERLINK");
    expect(Buffer.from(text, 'utf8').includes(Buffer.from('Zürich 🚀', 'utf8'))).toBe(true);
    const ndjson = (await get('/api/v1/companies/export')).text.trim().split('\n').map((line) => JSON.parse(line).name as string);
    // NDJSON carries values as they are
    expect(ndjson.sort()).toEqual([...names].sort());
  });

  it('C11.5: the companies export holds the list, in its order, and reads one statement a chunk without counting', async () => {
    const own = await t.createWorkspace('Export C');
    const at = Date.parse('2026-02-01T00:00:00.000Z');
    // 25 companies, some sharing an instant (ties by id): chunks of 10 are 10, 10 and 5
    await seedCompanies(t, own.id, Array.from({ length: 25 }, (_, i) => ({ name: `Chunked ${i}`, created_at: new Date(at + Math.floor(i / 2) * 1000).toISOString() })));
    const list = (await t.as(own, { method: 'GET', url: '/api/v1/companies?limit=100' })).json().data as { id: string }[];
    expect(list).toHaveLength(25);
    const exported = (await get('/api/v1/companies/export', own)).text.trim().split('\n').map((line) => JSON.parse(line) as { id: string });
    expect(exported).toEqual(list);

    const recording = recordingDatabase(t.db.database);
    const service = new ExportService(new Store(recording.database).forWorkspace(own.id));
    const chunks: { id: string }[][] = [];
    for await (const chunk of service.companies({}, 10)) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.length)).toEqual([10, 10, 5]);
    expect(chunks.flat()).toEqual(list);
    const onCompanies = recording.statements.filter((statement) => statement.tables.includes('companies'));
    expect(onCompanies).toHaveLength(3);
    expect(onCompanies.filter((statement) => statement.counts)).toEqual([]);
  });

  it('C11.5: identities export with the list filters', async () => {
    await importRows(t, ws.id, 'identities', [
      { email: 'fav@x.example', name: 'Fav', is_favorite: true, traits: { a: 1 } },
      { email: 'no@x.example', name: 'No', is_favorite: false },
    ]);
    const { text } = await get('/api/v1/identities/export?is_favorite=true');
    const lines = text.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ email: 'fav@x.example', traits: { a: 1 }, is_favorite: true });
    const csv = parseCsv((await get('/api/v1/identities/export?format=csv&email=FAV@x.example')).text);
    expect(csv).toHaveLength(2);
    expect(JSON.parse(csv[1]![5]!)).toEqual({ a: 1 });
  });

  it('C11.5: a bad format is 400 naming the parameter; an export is one request of the rate limit', async () => {
    const bad = await get('/api/v1/leads/export?format=xml');
    expect(bad.response.status).toBe(400);
    expect(Object.keys(JSON.parse(bad.text).details.parameters)).toEqual(['format']);
    const before = Number((await get('/api/v1/leads?limit=1')).response.headers.get('x-ratelimit-remaining'));
    const exported = await get('/api/v1/leads/export');
    expect(Number(exported.response.headers.get('x-ratelimit-remaining'))).toBe(before - 1);
    const after = Number((await get('/api/v1/leads?limit=1')).response.headers.get('x-ratelimit-remaining'));
    expect(after).toBe(before - 2);
  });
});
