/**
 * Retries that never duplicate a write: a `fetch` that sends one request
 * again when the answer says "later" (429, honouring Retry-After; 503, and
 * the 502/504 of a proxy in front; 409 `idempotency_key_in_use`, the first
 * attempt still running) or when no answer came (connection refused or
 * dropped, an attempt's timeout), with bounded exponential backoff and
 * jitter. A POST is sent with an `Idempotency-Key` (the caller's, or a random
 * UUID made once per call and kept by every attempt), so the server runs it
 * at most once and replays its first answer to a retry (CONTRACT C8.2). The
 * other methods the API has (GET, PATCH, DELETE) are idempotent: sending
 * them again changes nothing more.
 */
import { LeadlightConnectionError } from './errors.js';

export interface RetryOptions {
  /** retries after the first attempt (default 3; 0 turns retries off) */
  retries?: number;
  /** first backoff in ms, doubled at each retry (default 250) */
  baseDelayMs?: number;
  /** the longest backoff in ms (default 8000) */
  maxDelayMs?: number;
  /** a Retry-After longer than this (ms) is not waited for: the error is returned (default 60000) */
  maxRetryAfterMs?: number;
  /** each attempt's timeout in ms (default 30000); a timed-out attempt is retried */
  timeoutMs?: number;
  /** told before each retry (for logs and metrics) */
  onRetry?: (retry: RetryEvent) => void;
}

export interface RetryEvent {
  method: string;
  url: string;
  /** 1 for the first retry */
  attempt: number;
  delayMs: number;
  /** the status that caused it, or undefined when no answer came */
  status?: number;
  error?: unknown;
}

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

const RETRIED_STATUSES = new Set([429, 502, 503, 504]);

const DEFAULTS = { retries: 3, baseDelayMs: 250, maxDelayMs: 8000, maxRetryAfterMs: 60_000, timeoutMs: 30_000 };

/** Seconds or an HTTP date, as milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with jitter: between half and all of base * 2^attempt, at most `max`. */
export function backoffMs(attempt: number, base: number, max: number): number {
  const ceiling = Math.min(max, base * 2 ** attempt);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Whether an answer asks to be retried, and after how long (ms); undefined: do not retry. */
async function retryDelay(response: Response, attempt: number, options: typeof DEFAULTS): Promise<number | undefined> {
  let retriable = RETRIED_STATUSES.has(response.status);
  if (response.status === 409) {
    const body = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { error?: unknown } | undefined;
    retriable = body?.error === 'idempotency_key_in_use';
  }
  if (!retriable) return undefined;
  const asked = retryAfterMs(response.headers.get('retry-after'));
  if (asked === undefined) return backoffMs(attempt, options.baseDelayMs, options.maxDelayMs);
  if (asked > options.maxRetryAfterMs) return undefined;
  // a little jitter after the time asked, so that clients refused together do not return together
  return asked + Math.round(Math.random() * Math.min(250, options.baseDelayMs));
}

/** `fetchImpl` with the retries described above. */
export function retryingFetch(
  fetchImpl: (request: Request) => Promise<Response>,
  retryOptions: RetryOptions = {},
): (request: Request) => Promise<Response> {
  const options = {
    retries: retryOptions.retries ?? DEFAULTS.retries,
    baseDelayMs: retryOptions.baseDelayMs ?? DEFAULTS.baseDelayMs,
    maxDelayMs: retryOptions.maxDelayMs ?? DEFAULTS.maxDelayMs,
    maxRetryAfterMs: retryOptions.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs,
    timeoutMs: retryOptions.timeoutMs ?? DEFAULTS.timeoutMs,
  };

  return async (request) => {
    const headers = new Headers(request.headers);
    if (request.method === 'POST' && !headers.has(IDEMPOTENCY_KEY_HEADER)) headers.set(IDEMPOTENCY_KEY_HEADER, crypto.randomUUID());
    // read once, sent by every attempt
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const caller = request.signal;

    for (let attempt = 0; ; attempt += 1) {
      const signal = AbortSignal.any([caller, AbortSignal.timeout(options.timeoutMs)]);
      const attemptRequest = new Request(request.url, { method: request.method, headers, body, signal, redirect: request.redirect });
      let response: Response | undefined;
      let failure: unknown;
      try {
        response = await fetchImpl(attemptRequest);
      } catch (error) {
        if (caller.aborted) throw caller.reason ?? error;
        failure = error;
      }
      const delay =
        response === undefined ? backoffMs(attempt, options.baseDelayMs, options.maxDelayMs) : await retryDelay(response, attempt, options);
      if (delay === undefined || attempt >= options.retries) {
        if (response !== undefined) return response;
        const reason = failure instanceof Error ? (failure.cause instanceof Error ? failure.cause.message : failure.message) : String(failure);
        throw new LeadlightConnectionError(
          `${request.method} ${request.url} got no answer after ${attempt + 1} attempt${attempt === 0 ? '' : 's'}: ${reason}`,
          failure,
        );
      }
      retryOptions.onRetry?.({ method: request.method, url: request.url, attempt: attempt + 1, delayMs: delay, status: response?.status, error: failure });
      // free the connection of an answer that is not read
      await response?.body?.cancel().catch(() => undefined);
      await sleep(delay, caller);
    }
  };
}
