/**
 * Exports (CONTRACT C11.5) as the client gives them: `for await (const lead
 * of client.leads.export())` reads the NDJSON answer as it streams, one row
 * at a time (memory: one network chunk), or `exportCsv()` hands over the CSV
 * body as a byte stream to pipe to a file.
 */
import { LeadlightError } from './errors.js';

/** The rows of an NDJSON body, parsed one line at a time as the bytes arrive. */
export async function* ndjsonRows<T>(body: ReadableStream<Uint8Array>): AsyncGenerator<T, void, undefined> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffered = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let end = buffered.indexOf('\n');
      while (end >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line !== '') yield JSON.parse(line) as T;
        end = buffered.indexOf('\n');
      }
      if (done) break;
    }
    if (buffered.trim() !== '') yield JSON.parse(buffered) as T;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** The streamed body of an export answer, or the LeadlightError it carries. */
export async function exportBody(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<ReadableStream<Uint8Array>> {
  const { data, error, response } = await call;
  if (!response.ok || !(data instanceof ReadableStream)) throw LeadlightError.fromResponse(response, error);
  return data as ReadableStream<Uint8Array>;
}

/** An export as rows: iterating it sends the request and reads the answer as it streams. */
export function exportRows<T>(open: () => Promise<ReadableStream<Uint8Array>>): AsyncIterable<T> {
  return {
    async *[Symbol.asyncIterator]() {
      yield* ndjsonRows<T>(await open());
    },
  };
}
