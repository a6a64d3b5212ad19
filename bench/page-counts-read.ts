/**
 * What the overview's top pages cost to read: page_counts filled with 90 days
 * of N distinct pages a day, then the ten most viewed pages of 30 and 90
 * days read as the overview reads them (the median of 7). Needs TEST_POSTGRES_URL for PostgreSQL (BENCHMARKS.md).
 *
 *   npx tsx bench/page-counts-read.ts 1000
 */
import { Store } from '../src/repositories/index.js';
import { PendingPageViews } from '../src/repositories/tenant/page-counts.repository.js';
import { openDatabase } from '../src/db/database.js';
import { createServices } from '../src/services/index.js';
import { lastDays } from '../src/services/tenant/traffic-overview.service.js';
import { createEmptyDatabase } from '../test/helpers/stores.js';

const PAGES = Number(process.argv[2] ?? 1000);
for (const kind of ['sqlite', 'postgres'] as const) {
  const empty = await createEmptyDatabase(kind);
  const database = openDatabase(kind === 'sqlite' ? { kind, filename: empty.url } : { kind, url: empty.url, poolSize: 5 });
  await database.migrate();
  const store = new Store(database);
  const services = createServices(store, { tracking: { geoipDatabase: 'off' } });
  const ws = await services.workspaces.create('read');
  const scope = store.forWorkspace(ws.id);
  for (let day = 0; day < 90; day += 1) {
    const pending = new PendingPageViews();
    const date = new Date(Date.now() - day * 86_400_000).toISOString().slice(0, 10);
    for (let page = 0; page < PAGES; page += 1) for (let v = 0; v < 1 + (page % 5); v += 1) pending.add(date, 'www.example.com', `/page/${page}`);
    await scope.transaction((repos) => repos.pageCounts.add(pending));
  }
  if (kind === 'postgres') await database.db.executeQuery({ sql: 'analyze page_counts', parameters: [], query: { kind: 'RawNode' } } as never).catch(() => undefined);
  for (const days of [30, 90]) {
    const times: number[] = [];
    for (let run = 0; run < 7; run += 1) {
      const t0 = performance.now();
      const range = lastDays(days);
      await scope.repos.pageCounts.top(range.from, range.to, 10);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    process.stdout.write(`${[kind, `${PAGES} pages a day, ${days} days (${PAGES * days} counter rows): overview median ${times[3]!.toFixed(1)} ms`].join(' ')}\n`);
  }
  await database.close();
  await empty.drop();
}
