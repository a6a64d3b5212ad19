/**
 * Where deep pages of a lead list start, remembered per SQLite connection
 * with the store's version (issue 24, perf-reads): a page at offset 10,000
 * walks 10,000 index entries (about 280 µs on a million leads when one day
 * holds them all, as after a bulk of leads created today), while a page read
 * from a known row's keyset is one index seek. An anchor says "the row at
 * position `offset` of this list is (`at`, `id`)"; it is taken from the rows
 * of a deep page (its first row and the one past its end, which is where the
 * next page by offset starts) and used only while the version of the store
 * (`data_version` and `total_changes()`, total-cache.ts) is the one it was
 * read at: the same version is the same rows, so the same positions. A page
 * at offset O then reads from the nearest anchor at or before O, stepping
 * over only the rows between the two.
 */
import type { Keyset } from '../page.js';
import type { StoreVersion } from './total-cache.js';
import { perConnection } from './per-connection.js';

export interface Anchor extends Keyset {
  /** the position of the row (`at`, `id`) in the list, from 0 */
  offset: number;
}

interface Anchors extends StoreVersion {
  /** sorted by offset */
  list: Anchor[];
}

/** at most this many anchors per list and version: a client paging by offset leaves two per page */
const MAX_ANCHORS_PER_LIST = 64;
/** at most this many lists (workspaces × filters); all are forgotten when full */
const MAX_LISTS = 10_000;

export class OffsetAnchors {
  readonly #lists = new Map<string, Anchors>();

  /** the anchor of `key` at the version `seen` nearest at or before `offset` */
  nearest(key: string, seen: StoreVersion, offset: number): Anchor | undefined {
    const found = this.#lists.get(key);
    if (found === undefined || found.version !== seen.version || found.changes !== seen.changes) return undefined;
    let best: Anchor | undefined;
    for (const anchor of found.list) {
      if (anchor.offset > offset) break;
      best = anchor;
    }
    return best;
  }

  /** remembers `anchors` of `key`, read at the version `seen` (those of another version are forgotten) */
  remember(key: string, seen: StoreVersion, anchors: readonly Anchor[]): void {
    let found = this.#lists.get(key);
    if (found === undefined || found.version !== seen.version || found.changes !== seen.changes) {
      if (found === undefined && this.#lists.size >= MAX_LISTS) this.#lists.clear();
      found = { version: seen.version, changes: seen.changes, list: [] };
      this.#lists.set(key, found);
    }
    for (const anchor of anchors) {
      const list: Anchor[] = found.list;
      const index = list.findIndex((known) => known.offset >= anchor.offset);
      if (index !== -1 && list[index]?.offset === anchor.offset) continue;
      if (list.length >= MAX_ANCHORS_PER_LIST) list.length = 0;
      if (index === -1 || list.length === 0) list.push(anchor);
      else list.splice(index, 0, anchor);
    }
  }
}

/** The anchors of the connection `token` names (TenantScope.connectionToken). */
export const offsetAnchorsOf: (token: object) => OffsetAnchors = perConnection(() => new OffsetAnchors());
