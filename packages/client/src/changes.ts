/**
 * `client.changes(options)`: the changes feed (CONTRACT C11.1) as an async
 * iterator of events, oldest first, that keeps another system in step. It
 * follows the `rel="next"` links, and at the end waits `pollIntervalMs` and
 * asks the `rel="poll"` link again, until `signal` aborts (or, with
 * `follow: false`, until the end). To resume after a restart, persist the
 * cursor `onCursor` gives and pass it back as `cursor`: `onCursor` is called
 * once every event of a page has been taken from the iterator and the loop
 * asks for more, so a stored cursor never skips an event that was not
 * handled; a crash in the middle of a page replays at most that page
 * (handle events idempotently, by `id`).
 */
import { linkOf, queryOfLink } from './pagination.js';

export interface ChangesOptions {
  /** resume after this cursor (one `onCursor` gave); from the oldest event kept when absent */
  cursor?: string;
  /** called with the cursor to resume from, after each page's events were handled; awaited before the next request */
  onCursor?: (cursor: string) => void | Promise<void>;
  /** only these event types */
  types?: readonly string[];
  /** events per request (1 to 100) */
  limit?: number;
  /** how long to wait at the end of the feed before asking again (default 5000 ms) */
  pollIntervalMs?: number;
  /** false: stop at the end of the feed instead of polling */
  follow?: boolean;
  /** stops the iteration (quietly) at the next request or wait */
  signal?: AbortSignal;
}

export interface ChangesPage<E> {
  data: E[];
  /** the Link header of the answer */
  link: string | null;
}

const DEFAULT_POLL_MS = 5_000;

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export async function* iterateChanges<E>(
  fetchPage: (query: Record<string, string>, signal: AbortSignal | undefined) => Promise<ChangesPage<E>>,
  options: ChangesOptions = {},
): AsyncGenerator<E, void, undefined> {
  const { signal } = options;
  let cursor = options.cursor;
  for (;;) {
    if (signal?.aborted) return;
    const query: Record<string, string> = {};
    if (cursor !== undefined) query.cursor = cursor;
    if (options.types !== undefined) query.types = options.types.join(',');
    if (options.limit !== undefined) query.limit = String(options.limit);
    let page: ChangesPage<E>;
    try {
      page = await fetchPage(query, signal);
    } catch (error) {
      if (signal?.aborted) return;
      throw error;
    }
    yield* page.data;
    const next = linkOf(page.link, 'next');
    const target = next ?? linkOf(page.link, 'poll');
    const after = target === undefined ? undefined : queryOfLink(target).cursor;
    if (after !== undefined && after !== cursor) {
      cursor = after;
      await options.onCursor?.(cursor);
    }
    if (next === undefined) {
      if (options.follow === false) return;
      await pause(options.pollIntervalMs ?? DEFAULT_POLL_MS, signal);
    }
  }
}
