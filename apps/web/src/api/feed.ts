import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { liveSocket } from './live';

/**
 * Whether the prices on screen are live. `connecting` is the first attempt after the app opens (nothing
 * to warn about yet); `offline` and `reconnecting` mean the prices shown are stale.
 */
export type FeedState = 'live' | 'connecting' | 'reconnecting' | 'offline';

const browserOnline = () => typeof navigator === 'undefined' || navigator.onLine;

/**
 * Both the browser and the socket must be up, and the socket answering: it can stay open through an
 * outage with nothing arriving (Chromium keeps it until missed pings close it, many seconds later).
 */
export function feedState(): FeedState {
  if (!browserOnline()) return 'offline';
  if (liveSocket.answering) return 'live';
  return liveSocket.firstAttempt ? 'connecting' : 'reconnecting';
}

function subscribe(listener: () => void) {
  const stop = liveSocket.onConnectionChange(listener);
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    stop();
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

export const useFeedState = () => useSyncExternalStore(subscribe, feedState);

/**
 * Reconnects as soon as the browser is back online (not after the socket's backoff), and when the feed
 * is live again after being lost re-reads everything cached: pushes sent while the socket was down (a
 * fill, a close, a deposit credited; a server closes its sockets while its event bus is down) never
 * arrive, so the screens shown are refetched at once and the rest when next shown.
 */
export function connectFeed(client: QueryClient) {
  let previous = feedState();
  const wake = () => liveSocket.wake();
  const refresh = () => {
    const now = feedState();
    if (now === 'live' && previous !== 'live' && previous !== 'connecting') {
      void client.invalidateQueries();
    }
    previous = now;
  };
  window.addEventListener('online', wake);
  const stop = subscribe(refresh);
  return () => {
    window.removeEventListener('online', wake);
    stop();
  };
}
