/**
 * Lists: `await client.leads.list(query)` is the first page;
 * `for await (const lead of client.leads.list(query))` is every item,
 * page after page, following the `Link: <…>; rel="next"` of each answer
 * (CONTRACT C8.3: a keyset cursor, so a full export neither skips nor
 * repeats an item while others are written). The next page is asked with the
 * query of the link's URL, on the client's own base URL.
 */

export interface Pagination {
  limit: number;
  offset: number;
  total: number;
}

export interface Page<T> {
  data: T[];
  pagination: Pagination;
  /** the URL of the next page (the Link rel="next"), undefined on the last page */
  next: string | undefined;
  /** the X-Request-Id of the answer */
  requestId: string | undefined;
}

/** Fetches one page with the given query (the caller's, or the next link's). */
export type PageFetcher<T> = (query: Record<string, unknown>) => Promise<Page<T>>;

/** The target of the `rel="next"` link of an RFC 8288 Link header, if any. */
export function nextLink(header: string | null): string | undefined {
  return linkOf(header, 'next');
}

/** The target of the link of relation `rel` of an RFC 8288 Link header, if any. */
export function linkOf(header: string | null, rel: string): string | undefined {
  if (header === null) return undefined;
  // <uri-reference>; param=value; param="quoted, with commas", <…>; …
  const linkPattern = /<([^>]*)>((?:\s*;\s*[^;,=\s]+(?:\s*=\s*(?:"(?:[^"\\]|\\.)*"|[^;,\s]*))?)*)/g;
  for (const match of header.matchAll(linkPattern)) {
    const [, target, parameters = ''] = match;
    for (const parameter of parameters.matchAll(/;\s*([^;,=\s]+)(?:\s*=\s*("(?:[^"\\]|\\.)*"|[^;,\s]*))?/g)) {
      const name = parameter[1]?.toLowerCase();
      const value = (parameter[2] ?? '').replace(/^"|"$/g, '');
      if (name === 'rel' && value.toLowerCase().split(/\s+/).includes(rel)) return target;
    }
  }
  return undefined;
}

/** The query of a next link (relative or absolute), to ask the same endpoint with. */
export function queryOfLink(link: string): Record<string, string> {
  return Object.fromEntries(new URL(link, 'http://link.invalid/').searchParams);
}

export class PagedList<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  #first: Promise<Page<T>> | undefined;

  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly query: Record<string, unknown>,
  ) {}

  /** The first page (what `await` gives). */
  firstPage(): Promise<Page<T>> {
    this.#first ??= this.fetchPage(this.query);
    return this.#first;
  }

  then<R1 = Page<T>, R2 = never>(
    onFulfilled?: ((page: Page<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  /** Every page, the first one included, until the last (no next link). */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page = await this.firstPage();
    yield page;
    while (page.next !== undefined) {
      page = await this.fetchPage(queryOfLink(page.next));
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every item of every page in one array (mind the size of what you list). */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
