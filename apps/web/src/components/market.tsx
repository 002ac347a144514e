import { memo, useState } from 'react';
import { formatNumber, formatPercent } from '../i18n/format';

/** Prices keep their width as they tick: tabular digits in a box sized for the longest price. */
export function Price({
  value,
  precision,
  className,
}: {
  value: number | null | undefined;
  precision: number;
  className?: string;
}) {
  return (
    <span className={`num price${className ? ` ${className}` : ''}`} style={{ minWidth: `${precision + 6}ch` }}>
      {formatNumber(value, precision)}
    </span>
  );
}

/** Green for a gain, red for a loss, no colour for nothing (a flat 0 is neither). */
export function profitTone(value: number | null | undefined): string {
  if (!value) return '';
  return value > 0 ? 'text-up' : 'text-down';
}

export function Change({ value }: { value: number | null | undefined }) {
  const tone = !value ? 'flat' : value > 0 ? 'up' : 'down';
  return <span className={`num change change-${tone}`}>{formatPercent(value)}</span>;
}

/** The pair's shipped logo, or its initials when the picture fails. */
export function PairLogo({ src, code, size = 32 }: { src: string; code: string; size?: number }) {
  const [failed, setFailed] = useState(!src);
  if (failed) {
    return (
      <span className="pair-logo pair-logo-fallback" style={{ width: size, height: size }} aria-hidden="true">
        {code.slice(0, 1)}
      </span>
    );
  }
  return <img className="pair-logo" src={src} alt="" width={size} height={size} loading="lazy" onError={() => setFailed(true)} />;
}

/**
 * A small area chart of recent closes (home rows). Memoised: a price tick redraws every row, several times a
 * second on the home screen, and the series (one array per pair from the query) rarely changes with it.
 */
export const Sparkline = memo(function Sparkline({ closes = [], rising }: { closes: number[] | undefined; rising: boolean }) {
  const width = 56;
  const height = 28;
  if (closes.length < 2) return <svg className="sparkline" width={width} height={height} aria-hidden="true" />;
  const min = Math.min(...closes);
  const span = Math.max(...closes) - min || 1;
  const step = width / (closes.length - 1);
  const line = closes.map(
    (close, index) => `${(index * step).toFixed(1)},${(height - 2 - ((close - min) / span) * (height - 4)).toFixed(1)}`,
  );
  const color = rising ? 'var(--up)' : 'var(--down)';
  return (
    <svg className="sparkline" width={width} height={height} viewBox={`0 0 ${width} ${height}`} aria-hidden="true">
      <polygon points={`0,${height} ${line.join(' ')} ${width},${height}`} fill={color} opacity="0.15" />
      <polyline points={line.join(' ')} fill="none" stroke={color} strokeWidth="1.5" />
    </svg>
  );
});
