/**
 * Sends events in batches: queued, and posted together a second after the
 * first one (or at once when a batch is full), as text/plain so no CORS
 * preflight is needed, with fetch keepalive so a batch outlives the page.
 * A batch refused for a server fault or a rate limit is tried again with
 * exponential backoff, a few times; one refused as invalid is split, so one
 * bad event never takes the others with it. When the page is hidden or left,
 * everything still waiting goes with navigator.sendBeacon.
 */
export type TrackedEvent = Record<string, unknown>;

const BATCH = 20;
const DELAY_MS = 1000;
const ATTEMPTS = 5;
/** keepalive requests may carry 64 KiB in all */
const KEEPALIVE_BYTES = 60_000;

export interface Sender {
  push(event: TrackedEvent): void;
  flush(leaving?: boolean): void;
}

export function createSender(endpoint: string, key: string): Sender {
  const queue: TrackedEvent[] = [];
  let timer = 0;
  /** batches waiting to be tried again */
  const waiting: TrackedEvent[][] = [];
  const body = (events: TrackedEvent[]) => JSON.stringify({ key, events });

  function post(events: TrackedEvent[], attempt: number): void {
    const text = body(events);
    const retry = () => {
      if (attempt >= ATTEMPTS) return;
      waiting.push(events);
      setTimeout(() => {
        const index = waiting.indexOf(events);
        if (index < 0) return;
        waiting.splice(index, 1);
        post(events, attempt + 1);
      }, 1000 * 2 ** attempt * (1 + Math.random()));
    };
    fetch(endpoint, {
      method: 'POST',
      body: text,
      keepalive: text.length < KEEPALIVE_BYTES,
      credentials: 'omit',
      headers: { 'Content-Type': 'text/plain' },
    }).then((response) => {
      if (response.status === 429 || response.status >= 500) retry();
      else if (response.status === 400 && events.length > 1) for (const event of events) post([event], ATTEMPTS);
    }, retry);
  }

  function flush(leaving?: boolean): void {
    clearTimeout(timer);
    timer = 0;
    const batches = leaving ? waiting.splice(0) : [];
    while (queue.length > 0) batches.push(queue.splice(0, BATCH));
    for (const events of batches) {
      if (!(leaving && navigator.sendBeacon && navigator.sendBeacon(endpoint, body(events)))) post(events, 0);
    }
  }

  return {
    push(event) {
      queue.push(event);
      if (queue.length >= BATCH) flush();
      else if (!timer) timer = setTimeout(flush, DELAY_MS);
    },
    flush,
  };
}
