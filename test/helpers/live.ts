/**
 * A client of the Live page's event stream (CONTRACT C9.2) over real HTTP:
 * opens /dashboard/api/live/stream with a session, counts the `visits`
 * events it receives, and waits for the next one.
 */
export interface LiveStream {
  status: number;
  /** `visits` events received so far */
  readonly received: number;
  /** resolves once more than `count` events were received; rejects after `timeoutMs` */
  waitBeyond(count: number, timeoutMs: number): Promise<void>;
  /** whether the stream is open and connected (the server's first comment arrived) */
  readonly connected: boolean;
  close(): Promise<void>;
}

export async function openLiveStream(base: string, headers: Record<string, string>): Promise<LiveStream> {
  const controller = new AbortController();
  const response = await fetch(`${base}/dashboard/api/live/stream`, { headers, signal: controller.signal });
  let received = 0;
  let connected = false;
  const waiters = new Set<() => void>();
  if (response.ok && response.body !== null) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (block.includes(': connected')) connected = true;
            if (block.split('\n').includes('event: visits')) received += 1;
            for (const waiter of waiters) waiter();
          }
        }
      } catch {
        // aborted
      }
    })();
  } else {
    await response.body?.cancel();
  }
  const stream: LiveStream = {
    status: response.status,
    get received() {
      return received;
    },
    get connected() {
      return connected;
    },
    waitBeyond(count, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received > count) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no visits event within ${timeoutMs} ms (received ${received})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      controller.abort();
    },
  };
  if (response.ok) {
    const until = Date.now() + 5000;
    while (!connected && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return stream;
}
