/**
 * The Live page's stream of notices (CONTRACT C9.2): an EventSource on
 * /dashboard/api/live/stream (the session cookie authenticates it); each
 * `visits` event marks the live queries stale, so the page and the
 * overview's active visitors read them again without a reload. The browser
 * reconnects by itself after a drop (the server asks for 2 s).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { API_BASE } from '../api';

export const LIVE_KEY = ['live'] as const;

export function useLiveStream(): void {
  const client = useQueryClient();
  useEffect(() => {
    const source = new EventSource(`${API_BASE}/live/stream`, { withCredentials: true });
    const changed = () => void client.invalidateQueries({ queryKey: LIVE_KEY });
    source.addEventListener('visits', changed);
    // after a reconnection, what changed meanwhile is read again
    source.addEventListener('open', changed);
    return () => source.close();
  }, [client]);
}
