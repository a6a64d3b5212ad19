/**
 * Large imports (CONTRACT C2.3): on PostgreSQL they load through COPY, whose
 * text format must carry every value unchanged: tabs, newlines, backslashes
 * and unicode in strings and in JSON, nulls, booleans and numbers. The same
 * files on SQLite give the same data. On SQLite a large import into a small
 * table builds the table's secondary indexes once at its end
 * (src/db/sqlite-bulk.ts): they must be there afterwards, whole, and after a
 * failed import as before it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../../src/db/database.js';
import type { Schema } from '../../src/db/schema.js';
import { postgresCodec, sqliteCodec } from '../../src/db/codec.js';
import { StoredJson } from '../../src/schemas/json.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestWorkspace } from '../helpers/app.js';
import { importRows } from '../helpers/fixtures.js';
import { LineSplitter, type ParsedLines } from '../../src/services/tenant/import/import-parser.js';
import { fromWire, toWire } from '../../src/services/tenant/import/parsed-wire.js';
import { storeKinds, tempDir } from '../helpers/stores.js';

const TRICKY = ['tab\there', 'line\nbreak', 'carriage\rreturn', 'back\\slash', '\\N', 'quote "x"', 'é ü 😀', '', 'a\\tb'];

describe.each(storeKinds())('bulk imports on %s', (kind) => {
  let t: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ws = await t.createWorkspace('Bulk');
  });
  afterAll(async () => t?.close());

  it('C2.3: hundreds of identities and leads with every kind of value come back exactly', async () => {
    const identities = Array.from({ length: 150 }, (_, index) => ({
      id: `10000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      email: `bulk${index}@example.com`,
      name: TRICKY[index % TRICKY.length]!,
      traits: { note: TRICKY[(index + 1) % TRICKY.length]!, n: index / 3, ok: index % 2 === 0, none: null },
      is_favorite: index % 3 === 0,
      city: index % 4 === 0 ? null : 'Lyon',
      created_at: new Date(Date.UTC(2025, 0, 1) + index * 60_000).toISOString(),
    }));
    await importRows(t, ws.id, 'identities', identities);
    const leads = Array.from({ length: 300 }, (_, index) => ({
      id: `20000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      code: TRICKY[index % TRICKY.length]!,
      source: index % 5 === 0 ? null : `src-${index % 3}`,
      properties: { text: TRICKY[(index + 2) % TRICKY.length]!, list: [1, 'x\ty', null], deep: { a: { b: index } } },
      location: {},
      summary: index % 2 === 0 ? null : { s: TRICKY[index % TRICKY.length]! },
      identity_id: identities[index % identities.length]!.id,
      created_at: new Date(Date.UTC(2025, 1, 1) + index * 3_600_000).toISOString(),
    }));
    await importRows(t, ws.id, 'leads', leads);

    for (const expected of [identities[0]!, identities[4]!, identities[7]!]) {
      const response = await t.as(ws, { url: `/api/v1/identities/${expected.id}` });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({
        email: expected.email,
        name: expected.name,
        traits: expected.traits,
        is_favorite: expected.is_favorite,
        city: expected.city,
        created_at: expected.created_at,
      });
    }
    for (const expected of [leads[0]!, leads[1]!, leads[6]!, leads[8]!, leads[299]!]) {
      const response = await t.as(ws, { url: `/api/v1/leads/${expected.id}` });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({
        code: expected.code,
        source: expected.source,
        properties: expected.properties,
        summary: expected.summary,
        identity_id: expected.identity_id,
        created_at: expected.created_at,
      });
    }
    const listed = (await t.as(ws, { url: '/api/v1/leads?source=src-1&limit=1' })).json();
    expect(listed.pagination.total).toBe(leads.filter((lead) => lead.source === 'src-1').length);
    expect((await t.as(ws, { url: '/api/v1/identities?is_favorite=true&limit=1' })).json().pagination.total).toBe(50);
  });
});

describe('bulk imports on sqlite: secondary indexes', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const ROWS = 12_000;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    ws = await t.createWorkspace('Indexes');
  });
  afterAll(async () => t?.close());

  async function leadIndexes(): Promise<{ name: string; sql: string }[]> {
    const { rows } = await sql<{ name: string; sql: string }>`
      select name, sql from sqlite_master where type = 'index' and tbl_name = 'leads' and sql is not null order by name
    `.execute(t.db.database.db);
    return rows;
  }

  const lines = (count: number, source: (index: number) => string) =>
    Array.from({ length: count }, (_, index) =>
      JSON.stringify({
        id: randomUUID(),
        source: source(index),
        code: `c${index % 7}`,
        created_at: new Date(Date.UTC(2025, 0, 1) + index * 60_000).toISOString(),
      }),
    );

  it('C2.3: a failed large import leaves every index as it was, and a good one leaves them whole and used', async () => {
    const before = await leadIndexes();
    expect(before.map((index) => index.name)).toEqual(expect.arrayContaining(['leads_created_idx', 'leads_source_idx', 'leads_code_idx']));

    const bad = [...lines(ROWS, () => 'web'), '{"source": 5}'];
    await expect(t.services.forWorkspace(ws.id).imports.run('leads', Readable.from([bad.join('\n')]))).rejects.toThrow();
    expect(await leadIndexes()).toEqual(before);
    expect((await t.as(ws, { url: '/api/v1/leads?limit=1' })).json().pagination.total).toBe(0);

    const good = lines(ROWS, (index) => (index % 4 === 0 ? 'partner' : 'web'));
    await t.services.forWorkspace(ws.id).imports.run('leads', Readable.from([good.join('\n')]));
    expect(await leadIndexes()).toEqual(before);
    const { rows: check } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(t.db.database.db);
    expect(check).toEqual([{ integrity_check: 'ok' }]);
    const { rows: plan } = await sql<{ detail: string }>`
      explain query plan select id from leads where workspace_id = ${ws.id} and source = 'partner' order by created_at desc limit 5
    `.execute(t.db.database.db);
    expect(plan.map((step) => step.detail).join(' | ')).toContain('leads_source_idx');
    const partner = (await t.as(ws, { url: '/api/v1/leads?source=partner&limit=1' })).json();
    expect(partner.pagination.total).toBe(ROWS / 4);
  }, 120_000);

  async function searchTrigger(): Promise<string[]> {
    const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'trigger' and tbl_name = 'leads' order by name`.execute(t.db.database.db);
    return rows.map((row) => row.sql);
  }

  it('C2.3: the code search of a large import holds every lead (its trigger dropped and its work done once), and the trigger is back', async () => {
    const other = await t.createWorkspace('Search index');
    const triggers = await searchTrigger();
    expect(triggers.some((text) => /insert into leads_search/.test(text))).toBe(true);
    const bad = [...lines(ROWS, () => 'web'), '{"source": 5}'];
    await expect(t.services.forWorkspace(other.id).imports.run('leads', Readable.from([bad.join('\n')]))).rejects.toThrow();
    expect(await searchTrigger()).toEqual(triggers);

    const codes = Array.from({ length: ROWS }, (_, index) => JSON.stringify({ id: randomUUID(), code: `BULK-${String(index).padStart(5, '0')}`, source: 'file' }));
    await t.services.forWorkspace(other.id).imports.run('leads', Readable.from([codes.join('\n')]));
    expect(await searchTrigger()).toEqual(triggers);
    // FTS5 compares its index with the content table row by row: a lead missing from the index fails it
    await sql`insert into leads_search(leads_search) values ('integrity-check')`.execute(t.db.database.db);
    const found = async (code: string) =>
      (await sql<{ count: number }>`select count(*) as count from leads_search where leads_search match ${`"${code}"`} and workspace_id = ${other.id}`.execute(t.db.database.db)).rows[0]!.count;
    // the first lines went through the trigger, the rest through the one INSERT … SELECT
    for (const code of ['BULK-00000', 'BULK-01999', 'BULK-02000', `BULK-${String(ROWS - 1).padStart(5, '0')}`]) expect(await found(code), code).toBe(1);
    const made = await t.as(other, { method: 'POST', url: '/api/v1/leads', payload: { code: 'AFTER-IMPORT' } });
    expect(made.statusCode).toBe(201);
    expect(await found('AFTER-IMPORT')).toBe(1);
  }, 120_000);
});

describe('bulk imports on sqlite: page cache', () => {
  it('C2.3: a bulk transaction never runs with less page cache than its connection was opened with, and restores it after', async () => {
    const dir = tempDir('leadlight-bulk-cache-');
    const cacheOf = async (db: Kysely<Schema>) => (await sql<{ cache_size: number }>`pragma cache_size`.execute(db)).rows[0]!.cache_size;
    for (const opened of [64, 1024]) {
      const database = openDatabase({ kind: 'sqlite', filename: path.join(dir, `cache-${opened}.db`) }, { cacheMiB: opened });
      try {
        const during = await database.bulk((trx) => cacheOf(trx));
        // negative: KiB; the bulk floor is 256 MiB (src/db/sqlite-bulk.ts), and the import command opens with up to 1 GiB
        expect(-during, `opened with ${opened} MiB`).toBe(Math.max(opened, 256) * 1024);
        expect(await cacheOf(database.db)).toBe(-opened * 1024);
      } finally {
        await database.close();
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe.runIf(storeKinds().includes('postgres'))('bulk imports on postgres: statistics', () => {
  let t: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp('postgres');
    ws = await t.createWorkspace('Statistics');
  });
  afterAll(async () => t?.close());

  it('C2.3: the tables an import loaded by COPY are analyzed once it has committed', async () => {
    // timestamps come back as ISO text (db/postgres.ts)
    const lastAnalyze = async () => {
      const at = (await sql<{ at: string | null }>`select last_analyze as at from pg_stat_user_tables where relname = 'leads'`.execute(t.db.database.db)).rows[0]?.at;
      return at === null || at === undefined ? 0 : Date.parse(at);
    };
    const before = await lastAnalyze();
    const started = Date.now();
    await importRows(t, ws.id, 'leads', Array.from({ length: 500 }, (_, index) => ({ source: `s${index % 3}` })));
    // the statistics collector reports with a short delay
    await expect.poll(lastAnalyze, { timeout: 5000 }).toBeGreaterThan(Math.max(started - 1000, before));
  }, 60_000);
});

describe('the import worker splits lines as readline does (C2.3 line numbers)', () => {
  const readlineLines = async (text: string) => {
    const lines: string[] = [];
    for await (const line of createInterface({ input: Readable.from([text]), crlfDelay: Infinity })) lines.push(line);
    return lines;
  };

  it.each([
    ['a\nb\n', 'LF, ending with a line break'],
    ['a\r\nb\r\n\r\nc', 'CRLF, a blank line, no final line break'],
    ['a\rb\r\r\nc\r', 'lone CRs, CR CRLF, a final CR'],
    ['\n\n{"x":1}\n\r\n', 'blank lines only around one line'],
    ['é😀\n\u2028x\ny', 'non-ASCII text and U+2028 inside a line'],
  ])('%j (%s), cut into two chunks at every point', async (text) => {
    const expected = await readlineLines(text);
    for (let cut = 0; cut <= text.length; cut += 1) {
      const splitter = new LineSplitter();
      const lines = [...splitter.push(text.slice(0, cut)), ...splitter.push(text.slice(cut)), ...splitter.end()];
      expect(lines, `cut at ${cut}`).toEqual(expected);
    }
  });
});

describe('parsed lines cross from the import worker unchanged', () => {
  it('rows of different shapes, nested values, references and repeated ids come back equal', () => {
    const parsed: ParsedLines = {
      lines: [
        { line: 1, row: { id: 'a', n: 1, nested: { x: [1, null, 'y'] }, none: null }, explicitId: true, references: { identities: ['i1'], companies: [] } },
        { line: 3, row: { id: 'b', flag: false }, explicitId: false, references: { identities: [], companies: ['c1'] } },
        { line: 4, row: { id: 'a', n: 2, nested: {}, none: null }, explicitId: true, references: { identities: [], companies: [] }, repeats: 1 },
        { line: 5, row: { n: 3, id: 'c', nested: {}, none: null }, explicitId: true, references: { identities: ['i2', 'i3'], companies: ['c2'] } },
      ],
      problems: [{ line: 2, message: 'must be a JSON object' }],
    };
    const back = fromWire(structuredClone(toWire(parsed)));
    expect(back).toEqual(parsed);
    expect(back.lines.map((line) => Object.keys(line.row as object))).toEqual(parsed.lines.map((line) => Object.keys(line.row as object)));
  });

  it('JSON fields cross as their text and arrive as StoredJson, which the codec writes unchanged; other values as they were', () => {
    const properties = { text: 'tab\there', deep: { list: [1, 'x', null] } };
    const parsed: ParsedLines = {
      lines: [
        { line: 1, row: { id: 'a', properties, summary: null, code: '{"not":"json field"}' }, explicitId: true, references: { identities: [], companies: [] } },
        { line: 2, row: { id: 'b', properties: {}, summary: { score: 5 }, code: null }, explicitId: true, references: { identities: [], companies: [] } },
      ],
      problems: [],
    };
    const back = fromWire(structuredClone(toWire(parsed, ['properties', 'summary'])));
    const [first, second] = back.lines.map((line) => line.row as Record<string, unknown>);
    expect(first!.properties).toBeInstanceOf(StoredJson);
    expect(sqliteCodec.json(first!.properties as StoredJson)).toBe(JSON.stringify(properties));
    expect(first!.summary).toBeNull();
    expect(first!.code).toBe('{"not":"json field"}');
    expect(postgresCodec.nullableJson(second!.summary as StoredJson)).toBe('{"score":5}');
    expect(JSON.parse(JSON.stringify(second))).toEqual({ id: 'b', properties: {}, summary: { score: 5 }, code: null });
  });
});
