/**
 * Loading, empty and error states, the same everywhere: announced to screen
 * readers (status, alert) and with a way out of an error (Try again).
 */
import type { ReactNode } from 'react';
import { ApiError } from '../api';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="state empty">{children}</div>;
}

export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const message =
    error instanceof ApiError
      ? error.status === 404
        ? 'Not found in this workspace.'
        : error.message
      : 'Something went wrong while loading this.';
  return (
    <div className="state error" role="alert">
      <p>{message}</p>
      {retry !== undefined && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** A query's three states, then its content. */
export function QueryView<T>({
  query,
  children,
  loading,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined; refetch: () => unknown };
  children: (data: T) => ReactNode;
  loading?: string;
}) {
  if (query.isPending) return <Loading label={loading} />;
  if (query.isError || query.data === undefined) return <ErrorState error={query.error} retry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}
