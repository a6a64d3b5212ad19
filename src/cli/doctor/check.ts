/**
 * What a doctor check reports, and the time limit every check runs under, so
 * that an unreachable database or Redis makes doctor fail, never hang.
 */

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skipped';

export interface CheckResult {
  name: string;
  status: CheckStatus;
  detail: string;
}

export const CHECK_TIMEOUT_MS = 3_000;

/** `work`, or an error once `ms` have passed without an answer. */
export async function within<T>(work: Promise<T>, ms: number = CHECK_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.split('\n')[0] ?? text;
}
