import type { IndexPointView } from '@pipwise/domain';
import {
  ColorType,
  createChart,
  customSeriesDefaultOptions,
  type CustomData,
  type CustomSeriesOptions,
  type ICustomSeriesPaneRenderer,
  type ICustomSeriesPaneView,
  type PaneRendererCustomData,
  type PriceToCoordinateConverter,
  type Time,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { numberFormatter } from '../../i18n/format';
import { chartPoints } from './figures';

interface IndexPoint extends CustomData {
  value: number;
}

interface IndexLineOptions extends CustomSeriesOptions {
  /** A dashed line over a shaded area (the backtest), or a solid line (live). */
  shaded: boolean;
}

type Target = Parameters<ICustomSeriesPaneRenderer['draw']>[0];

/**
 * A return index drawn as a line, or a dashed line over a shaded area. A custom series rather than the
 * library's line and area series: the chart's code is shared with the trade screen's candles, and their
 * renderers would add 3 KB to that screen's download.
 */
class IndexLine implements ICustomSeriesPaneView<Time, IndexPoint, IndexLineOptions> {
  private data: PaneRendererCustomData<Time, IndexPoint> | null = null;
  private options: IndexLineOptions | null = null;

  renderer(): ICustomSeriesPaneRenderer {
    return { draw: (target, price) => this.draw(target, price) };
  }

  update(data: PaneRendererCustomData<Time, IndexPoint>, options: IndexLineOptions) {
    this.data = data;
    this.options = options;
  }

  priceValueBuilder(point: IndexPoint) {
    return [point.value];
  }

  isWhitespace(point: IndexPoint | { time: Time }): point is { time: Time } {
    return (point as Partial<IndexPoint>).value === undefined;
  }

  defaultOptions(): IndexLineOptions {
    return { ...customSeriesDefaultOptions, shaded: false };
  }

  private draw(target: Target, price: PriceToCoordinateConverter) {
    const { data, options } = this;
    if (!data || !options || !data.visibleRange) return;
    const points = data.bars.slice(data.visibleRange.from, data.visibleRange.to).flatMap((bar) => {
      const y = price(bar.originalData.value);
      return y === null ? [] : [{ x: bar.x, y }];
    });
    if (points.length === 0) return;
    target.useBitmapCoordinateSpace(({ context, horizontalPixelRatio: h, verticalPixelRatio: v, bitmapSize }) => {
      context.beginPath();
      points.forEach((point, index) => {
        if (index) context.lineTo(point.x * h, point.y * v);
        else context.moveTo(point.x * h, point.y * v);
      });
      context.lineWidth = (options.shaded ? 1 : 2) * v;
      context.strokeStyle = options.color;
      context.setLineDash(options.shaded ? [4 * h, 3 * h] : []);
      context.stroke();
      if (!options.shaded) return;
      context.lineTo(points[points.length - 1]!.x * h, bitmapSize.height);
      context.lineTo(points[0]!.x * h, bitmapSize.height);
      context.closePath();
      context.fillStyle = 'rgba(156,163,175,0.25)';
      context.fill();
    });
  }
}

const LIVE = '#1d4ed8';
const BACKTEST = '#9ca3af';

/**
 * The provider's daily return index (100 at the first snapshot) as a line; a strategy's backtest, when
 * there is one, is a separate shaded grey series under its own label, never joined to the live line.
 * Its own chunk with lightweight-charts, loaded after the profile's figures.
 */
export default function ReturnChart({
  live,
  backtest,
  locale,
  label,
}: {
  live: IndexPointView[];
  backtest: IndexPointView[] | null;
  locale: string;
  label: string;
}) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const styles = getComputedStyle(element);
    const chart = createChart(element, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: 'transparent' },
        textColor: styles.getPropertyValue('--text-secondary').trim() || '#666',
        attributionLogo: false,
      },
      localization: { locale, priceFormatter: numberFormatter(1) },
      grid: { vertLines: { visible: false }, horzLines: { color: 'rgba(128,128,128,0.12)' } },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false },
      handleScroll: false,
      handleScale: false,
    });
    if (backtest && backtest.length > 0) {
      chart
        .addCustomSeries(new IndexLine(), { color: BACKTEST, shaded: true, priceLineVisible: false, lastValueVisible: false })
        .setData(chartPoints(backtest));
    }
    chart.addCustomSeries(new IndexLine(), { color: LIVE, priceLineVisible: false }).setData(chartPoints(live));
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [live, backtest, locale]);

  return <div className="copy-chart" ref={container} role="img" aria-label={label} />;
}
