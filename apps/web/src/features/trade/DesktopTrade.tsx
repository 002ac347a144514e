import { SocketTopic } from '@pipwise/domain';
import { lazy, Suspense, useLayoutEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useTopic } from '../../api/live';
import { OrderStatus, type OrderStatusValue } from '../../api/queries/orderKeys';
import type { TradePair } from '../../api/types';
import { Change, PairLogo, Price } from '../../components/market';
import { ClosedLabel, isOpen } from '../../components/PairRow';
import { Screen } from '../../components/Screen';
import { useSession } from '../../stores/session';
import { OrderList } from '../../components/OrderList';
import './desktop-trade.css';

/** Comes with the first order opened. */
const OrderDetail = lazy(() => import('../../components/OrderDetail').then((module) => ({ default: module.OrderDetail })));

const ORDER_TABS = [
  { status: OrderStatus.holding, labelKey: 'order.holding' },
  { status: OrderStatus.pending, labelKey: 'order.pending' },
  { status: OrderStatus.history, labelKey: 'order.history' },
] as const;

interface DesktopTradeProps {
  pairs: TradePair[];
  pair: TradePair;
  onPick: (pairId: number) => void;
  /** The trade screen's own parts, as the phone shows them. */
  header: ReactNode;
  chart: ReactNode;
  ticket: ReactNode;
  risk: ReactNode;
}

/**
 * The trade screen of a window 1024 px wide or more, laid out as a web terminal: the pairs on the left,
 * the chart in the middle over the account's risk and its positions, pending orders and history, the
 * order ticket on the right. The parts are the phone's; only their places differ.
 */
export default function DesktopTrade({ pairs, pair, onPick, header, chart, ticket, risk }: DesktopTradeProps) {
  const { t } = useTranslation();
  const signedIn = useSession((state) => Boolean(state.token));
  const [status, setStatus] = useState<OrderStatusValue>(OrderStatus.holding);
  const [selected, setSelected] = useState<{ id: number; status: OrderStatusValue } | null>(null);
  useTopic(SocketTopic.forexTrade);

  // The whole window while this screen is shown: a hidden tab's effects are cleaned up, so every other
  // screen goes back to the centred column.
  useLayoutEffect(() => {
    document.documentElement.classList.add('desktop-trader');
    return () => document.documentElement.classList.remove('desktop-trader');
  }, []);

  return (
    <Screen withTabBar>
      <div className="terminal">
        <nav className="terminal-watchlist" aria-label={t('home.markets')}>
          <ul>
            {pairs.map((candidate) => (
              <li key={candidate.Id}>
                <button
                  type="button"
                  className="watch-row"
                  aria-current={candidate.Id === pair.Id ? 'true' : undefined}
                  onClick={() => onPick(candidate.Id)}
                >
                  <PairLogo src={candidate.Logo} code={candidate.ShowCode} size={24} />
                  <span className="pair-code">{candidate.ShowCode}</span>
                  <Price value={candidate.ForexQuotations?.Close} precision={candidate.PricePrecision} />
                  {isOpen(candidate) ? <Change value={candidate.ForexQuotations?.Change} /> : <ClosedLabel pair={candidate} />}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <div className="terminal-chart">
          {header}
          {chart}
        </div>
        {signedIn && (
          <section className="terminal-orders" aria-label={t('order.list')}>
            {risk}
            {/* Buttons rather than antd-mobile's swiping tabs: each is reached with Tab and chosen with Enter. */}
            <div className="terminal-tabs" role="tablist">
              {ORDER_TABS.map((tab) => (
                <button
                  type="button"
                  role="tab"
                  key={tab.status}
                  aria-selected={tab.status === status}
                  className={`period${tab.status === status ? ' period-active' : ''}`}
                  onClick={() => setStatus(tab.status)}
                >
                  {t(tab.labelKey)}
                </button>
              ))}
            </div>
            <div className="terminal-order-list">
              <OrderList key={status} status={status} onOpen={(id) => setSelected({ id, status })} />
            </div>
            {selected && (
              <Suspense fallback={null}>
                <OrderDetail selection={selected} onClose={() => setSelected(null)} />
              </Suspense>
            )}
          </section>
        )}
        <aside className="terminal-side">{ticket}</aside>
      </div>
    </Screen>
  );
}
