/**
 * An import reads its file only as far ahead of its writes as CHUNKS_AHEAD
 * chunks (src/services/tenant/import/parse-in-worker.ts): lines parsed by the
 * worker but not yet taken by the writes count against it, so a parser
 * faster than the writes never holds the rest of a large file in memory
 * (a million-lead import grew to 1.5 GB before). Here nothing takes the
 * parsed lines but the first chunk's: the input must stop one chunk past
 * CHUNKS_AHEAD, and
 * once they are taken, the whole input must come through, in order.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CHUNKS_AHEAD, ParseInWorker } from '../../src/services/tenant/import/parse-in-worker.js';

const CHUNKS = CHUNKS_AHEAD * 4;
const LINES_PER_CHUNK = 50;

function input(): { stream: Readable; emitted: () => number } {
  let emitted = 0;
  const stream = Readable.from(
    (function* () {
      for (let chunk = 0; chunk < CHUNKS; chunk += 1) {
        yield Array.from({ length: LINES_PER_CHUNK }, (_, index) => `${JSON.stringify({ code: `C-${chunk}-${index}`, source: 'file' })}\n`).join('');
      }
    })(),
    { objectMode: false },
  );
  stream.on('data', () => (emitted += 1));
  return { stream, emitted: () => emitted };
}

describe('import read-ahead', () => {
  it('C2.3: reading stops at CHUNKS_AHEAD chunks not yet taken, parsed or not, and goes on as they are taken', async () => {
    const { stream, emitted } = input();
    const parsed = new ParseInWorker('leads', new Date().toISOString(), stream);
    try {
      // one chunk's lines taken (the worker is running); the others wait untaken: the input must stop one chunk further on
      let ended = false;
      stream.once('end', () => (ended = true));
      const results = parsed.results();
      const first = await results.next();
      const codes: string[] = first.done === true ? [] : first.value.lines.map((line) => (line.row as { code: string }).code);
      const until = Date.now() + 5_000;
      while (Date.now() < until && !ended && emitted() <= CHUNKS_AHEAD + 1) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(ended).toBe(false);
      expect(emitted()).toBe(CHUNKS_AHEAD + 1);

      for await (const piece of results) {
        expect(piece.problems).toEqual([]);
        for (const line of piece.lines) codes.push((line.row as { code: string }).code);
      }
      expect(emitted()).toBe(CHUNKS);
      expect(codes).toHaveLength(CHUNKS * LINES_PER_CHUNK);
      expect(codes[LINES_PER_CHUNK * (CHUNKS_AHEAD + 1)]).toBe(`C-${CHUNKS_AHEAD + 1}-0`);
    } finally {
      await parsed.close();
    }
  });
});
