import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TradePair } from '../api/types';
import { Paths } from '../routing/paths';
import { Change, PairLogo, Price, Sparkline } from './market';
import { formatOpening, formatOpeningDay, nextOpening } from './opening';
import { useTradePrefs } from '../stores/prefs';
import './PairRow.css';

export const isOpen = (pair: TradePair) => pair.MarketStatus === 1;

/**
 * One market's row. Memoised: a tick replaces only the pairs it moved (api/live.ts), so the other rows of
 * a list skip rendering on every tick.
 */
export const PairRow = memo(function PairRow({ pair, sparkline }: { pair: TradePair; sparkline?: number[] | undefined }) {
  const setPairId = useTradePrefs((state) => state.setPairId);
  const quote = pair.ForexQuotations;
  return (
    <li>
      <Link to={Paths.trade} className="pair-row" onClick={() => setPairId(pair.Id)}>
        <PairLogo src={pair.Logo} code={pair.ShowCode} />
        <span className="pair-code">{pair.ShowCode}</span>
        <Sparkline closes={sparkline} rising={(quote?.Change ?? 0) >= 0} />
        <Price value={quote?.Close} precision={pair.PricePrecision} />
        {isOpen(pair) ? <Change value={quote?.Change} /> : <ClosedLabel pair={pair} />}
      </Link>
    </li>
  );
});

/** "Closed", with the day and time the market opens next under it (the whole sentence as its title). */
export function ClosedLabel({ pair }: { pair: TradePair }) {
  const { t } = useTranslation();
  const opening = nextOpening(pair, Date.now());
  return (
    <span className="closed-label" title={opening ? t('finder.opens_at', { time: formatOpening(opening) }) : undefined}>
      {t('home.closed')}
      {opening && <span className="opens-at">{formatOpeningDay(opening)}</span>}
    </span>
  );
}
