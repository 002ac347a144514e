import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TradePair } from '../api/types';
import { Paths } from '../routing/paths';
import { Change, PairLogo, Price, Sparkline } from './market';
import { useTradePrefs } from '../stores/prefs';
import './PairRow.css';

export const isOpen = (pair: TradePair) => pair.MarketStatus === 1;

export function PairRow({ pair, sparkline }: { pair: TradePair; sparkline?: number[] | undefined }) {
  const { t } = useTranslation();
  const setPairId = useTradePrefs((state) => state.setPairId);
  const quote = pair.ForexQuotations;
  return (
    <li>
      <Link to={Paths.trade} className="pair-row" onClick={() => setPairId(pair.Id)}>
        <PairLogo src={pair.Logo} code={pair.ShowCode} />
        <span className="pair-code">{pair.ShowCode}</span>
        <Sparkline closes={sparkline} rising={(quote?.Change ?? 0) >= 0} />
        <Price value={quote?.Close} precision={pair.PricePrecision} />
        {isOpen(pair) ? <Change value={quote?.Change} /> : <span className="closed-label">{t('home.closed')}</span>}
      </Link>
    </li>
  );
}
