/**
 * A closed-loop load of the tree-against-tree benchmarks (read-path.ts,
 * write-path.ts): `connections` requests in flight until `count` have been
 * sent, each body read to its end.
 */

/** `send(index)` makes request `index` and answers whether its status was the expected one. */
export async function closedLoop(connections: number, count: number, send: (index: number) => Promise<boolean>): Promise<{ seconds: number; failed: number }> {
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (;;) {
        const index = next;
        next += 1;
        if (index >= count) return;
        if (!(await send(index))) failed += 1;
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, failed };
}
