import { klineTopic } from '@pipwise/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSocketMessage, useTopic } from '../../api/live';
import { marketKeys } from '../../api/queries/market';
import type { KlinePoint, KlinePush } from '../../api/types';

/** Replaces the bar with the same open time or appends a newer one. */
export function upsertBar(points: KlinePoint[] | undefined, bar: KlinePoint): KlinePoint[] | undefined {
  if (!points) return points;
  const last = points[points.length - 1];
  if (last && last.Time === bar.Time) return [...points.slice(0, -1), bar];
  if (!last || bar.Time > last.Time) return [...points, bar];
  return points;
}

/** KLINE.<code> pushes update the cached bars of the period they belong to. */
export function useLiveKlines(pairId: number | undefined, code: string | undefined) {
  const client = useQueryClient();
  const topic = code ? klineTopic(code) : null;
  useTopic(topic);
  const onBar = useCallback(
    (data: unknown) => {
      if (pairId === undefined) return;
      const push = data as KlinePush;
      const { Period, ...bar } = push;
      client.setQueryData<KlinePoint[]>(marketKeys.kline(pairId, Period), (points) => upsertBar(points, bar));
    },
    [client, pairId],
  );
  useSocketMessage(topic, onBar);
}
