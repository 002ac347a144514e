import {
  CandlestickSeries,
  ColorType,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { memo, useEffect, useRef } from 'react';
import type { KlinePoint } from '../../api/types';
import { numberFormatter } from '../../i18n/format';

const toSeconds = (time: number) => (time > 1e12 ? Math.floor(time / 1000) : time) as UTCTimestamp;

function toBar(point: KlinePoint) {
  return { time: toSeconds(point.Time), open: point.Open, high: point.High, low: point.Low, close: point.Close };
}

/**
 * The candlestick chart: its own chunk (≈ 60 KB of gzip JS), loaded only when the trade screen shows it.
 * Memoised: the trade screen renders on every pair's tick; the chart takes its own bars from its props.
 */
export default memo(function CandleChart({
  points,
  precision,
  label,
  locale,
}: {
  points: KlinePoint[];
  precision: number;
  label: string;
  /** BCP 47 tag: the time axis speaks the reader's language. */
  locale: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const shown = useRef<{ count: number; first: number | null }>({ count: 0, first: null });

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const styles = getComputedStyle(element);
    const instance = createChart(element, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: 'transparent' },
        textColor: styles.getPropertyValue('--text-secondary').trim() || '#666',
        attributionLogo: false,
      },
      grid: { vertLines: { color: 'rgba(128,128,128,0.12)' }, horzLines: { color: 'rgba(128,128,128,0.12)' } },
      timeScale: { timeVisible: true, secondsVisible: false },
      rightPriceScale: { borderVisible: false },
    });
    series.current = instance.addSeries(CandlestickSeries, {
      upColor: '#16a34a',
      downColor: '#dc2626',
      borderVisible: false,
      wickUpColor: '#16a34a',
      wickDownColor: '#dc2626',
    });
    chart.current = instance;
    return () => {
      instance.remove();
      chart.current = null;
      series.current = null;
      shown.current = { count: 0, first: null };
    };
  }, []);

  useEffect(() => {
    // The axis formats prices as the header and the order form do, with the reader's decimal separator.
    chart.current?.applyOptions({ localization: { locale, priceFormatter: numberFormatter(precision) } });
  }, [locale, precision]);

  useEffect(() => {
    series.current?.applyOptions({ priceFormat: { type: 'price', precision, minMove: 1 / 10 ** precision } });
  }, [precision]);

  useEffect(() => {
    const target = series.current;
    if (!target) return;
    try {
      const first = points[0] ? points[0].Time : null;
      const last = points[points.length - 1];
      const grewByOne = shown.current.first === first && points.length - shown.current.count <= 1 && points.length > 0;
      if (grewByOne && last) target.update(toBar(last));
      else {
        target.setData(points.map(toBar));
        chart.current?.timeScale().scrollToRealTime();
      }
      shown.current = { count: points.length, first };
      container.current?.setAttribute('data-candles', String(points.length));
    } catch (error) {
      // docs/api.md: chart failures only log.
      console.error('chart update failed', error);
    }
  }, [points]);

  return <div className="candle-chart" ref={container} role="img" aria-label={label} data-candles="0" />;
});
