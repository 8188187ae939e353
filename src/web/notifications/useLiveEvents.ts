// Live updates: one EventSource on GET /api/events per signed-in dashboard. A pushed notification joins the
// updates dialog and refreshes the bell; any push refreshes the cached lists (dashboards, queues) in the background.
import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { FormNotification } from '../../domain/notifications';
import { notificationsKey } from './api';
import { updatesStore } from './updates-store';

/** Queries a push never makes stale (holidays do not change with requests). */
const STATIC_KEYS = new Set(['holidays', 'employee-profile']);

/** Invalidates every request-related query at most once per `ms` (a decision sends several events at once). */
function throttledRefresh(queryClient: QueryClient, ms = 250) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      void queryClient.invalidateQueries({ predicate: (q) => !STATIC_KEYS.has(String(q.queryKey[0])) });
    }, ms);
  };
}

export function useLiveEvents(userId: string | number) {
  const queryClient = useQueryClient();

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let lastId: string | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | null = null;
    let attempts = 0;
    let stopped = false;
    const refresh = throttledRefresh(queryClient);

    const connect = () => {
      // A stream the browser gave up on (e.g. after a server restart answered an error) is reopened by hand,
      // passing the last id as a query parameter since EventSource cannot set the header then.
      const url = lastId ? `/api/events?lastEventId=${encodeURIComponent(lastId)}` : '/api/events';
      const es = new EventSource(url, { withCredentials: true });
      source = es;
      es.addEventListener('ready', () => {
        attempts = 0;
        void queryClient.invalidateQueries({ queryKey: notificationsKey(userId) });
      });
      es.addEventListener('notification', (event) => {
        const e = event as MessageEvent<string>;
        if (e.lastEventId) lastId = e.lastEventId;
        try {
          const n = JSON.parse(e.data) as FormNotification;
          updatesStore.add([n]);
        } catch {
          return;
        }
        void queryClient.invalidateQueries({ queryKey: notificationsKey(userId) });
        refresh();
      });
      es.addEventListener('request-changed', () => refresh());
      es.onerror = () => {
        if (es.readyState !== EventSource.CLOSED || stopped) return;
        es.close();
        attempts += 1;
        retryTimer = setTimeout(connect, Math.min(30_000, 1000 * 2 ** Math.min(attempts, 5)));
      };
    };
    connect();

    return () => {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      source?.close();
    };
  }, [queryClient, userId]);
}
