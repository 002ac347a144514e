import { LANGUAGE_LOCALES, SocketTopic } from '@pipwise/domain';
import { DownOutline } from 'antd-mobile-icons';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTopic } from '../../api/live';
import { PERIODS, useKlineQuery, useTradeListQuery, type Period } from '../../api/queries/market';
import { Change, PairLogo, Price } from '../../components/market';
import { LazyAccountMode } from '../../components/LazyAccountMode';
import { LazyNoticeBell } from '../../components/LazyNoticeBell';
import { Screen } from '../../components/Screen';
import { currentLanguage } from '../../i18n';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import { useTradePrefs } from '../../stores/prefs';
import { useSession } from '../../stores/session';
import { isOpen } from '../../components/PairRow';
import { OrderForm } from './OrderForm';
import { useLiveKlines } from './useLiveKlines';
import { useWideScreen } from './wide';
import './trade.css';

const CandleChart = lazy(() => import('./CandleChart'));
/** Not on the first screen's path: it comes with the figures it shows, after them. */
const RiskPanel = lazy(() => import('../../components/RiskPanel'));
/** The terminal layout of a wide screen: a phone never downloads it. */
const DesktopTrade = lazy(() => import('./DesktopTrade'));
/** Its popup brings antd-mobile's animation and gesture libraries: asked for by the first render, not waited for. */
const PairDrawer = lazy(() => import('./PairDrawer'));

export default function TradePage() {
  const { t } = useTranslation();
  const pairs = useTradeListQuery();
  const { pairId, setPairId } = useTradePrefs();
  const [period, setPeriod] = useState<Period>('1min');
  const [drawerOpen, setDrawerOpen] = useState(false);
  const signedIn = useSession((state) => Boolean(state.token));
  const wide = useWideScreen();
  useTopic(SocketTopic.dayMarket);

  const list = pairs.data ?? [];
  const pair = list.find((candidate) => candidate.Id === pairId) ?? list[0];
  const klines = useKlineQuery(pair?.Id, period);
  useLiveKlines(pair?.Id, pair?.Code);

  if (pairs.isPending) {
    return (
      <Screen withTabBar>
        <ListSkeleton />
      </Screen>
    );
  }
  if (!pair) {
    return <Screen withTabBar>{pairs.isError ? <ErrorState onRetry={() => void pairs.refetch()} /> : <EmptyState />}</Screen>;
  }

  const quote = pair.ForexQuotations;
  const periodLabel = t(`trade.period_${(PERIODS.find((candidate) => candidate.value === period)?.label ?? '1M').toLowerCase()}`);
  const header = (
    <header className="trade-header">
      <button type="button" className="pair-switch" onClick={() => setDrawerOpen(true)} aria-label={t('trade.choose_pair')}>
        <PairLogo src={pair.Logo} code={pair.ShowCode} size={28} />
        <h1 className="trade-code">{pair.ShowCode}</h1>
        <DownOutline />
      </button>
      <LazyAccountMode />
      <LazyNoticeBell />
      <div className="trade-quote">
        <Price value={quote?.Close} precision={pair.PricePrecision} className="trade-price" />
        {isOpen(pair) ? <Change value={quote?.Change} /> : <span className="closed-label">{t('home.closed')}</span>}
      </div>
    </header>
  );
  const chart = (
    <>
      <div className="period-bar" role="group" aria-label={t('trade.period')}>
        {PERIODS.map((candidate) => (
          <button
            type="button"
            key={candidate.value}
            className={`period${candidate.value === period ? ' period-active' : ''}`}
            aria-pressed={candidate.value === period}
            onClick={() => setPeriod(candidate.value)}
          >
            {t(`trade.period_${candidate.label.toLowerCase()}`)}
          </button>
        ))}
      </div>

      <section className="chart-box">
        {klines.isError ? (
          <ErrorState onRetry={() => void klines.refetch()} />
        ) : klines.isPending ? (
          <div className="chart-placeholder" role="status" aria-label={t('common.loading')} />
        ) : klines.data.length === 0 ? (
          <EmptyState />
        ) : (
          <Suspense fallback={<div className="chart-placeholder" role="status" aria-label={t('common.loading')} />}>
            <CandleChart
              points={klines.data}
              precision={pair.PricePrecision}
              locale={LANGUAGE_LOCALES[currentLanguage()]}
              label={t('trade.chart_label', { code: pair.ShowCode, period: periodLabel })}
            />
          </Suspense>
        )}
      </section>
    </>
  );
  const ticket = <OrderForm key={pair.Id} pair={pair} />;
  const risk = signedIn && (
    <Suspense fallback={<div className="risk-panel" aria-busy="true" />}>
      <RiskPanel />
    </Suspense>
  );

  const drawer = (
    <Suspense fallback={null}>
      <PairDrawer open={drawerOpen} pairs={list} current={pair.Id} onPick={setPairId} onClose={() => setDrawerOpen(false)} />
    </Suspense>
  );

  if (wide) {
    // The same parts, side by side with the pairs and the orders (docs/architecture.md, "Desktop").
    return (
      <Suspense fallback={<ListSkeleton />}>
        <DesktopTrade pairs={list} pair={pair} onPick={setPairId} header={header} chart={chart} ticket={ticket} risk={risk} />
        {drawer}
      </Suspense>
    );
  }
  return (
    <Screen withTabBar>
      {header}
      {chart}
      {ticket}
      {risk}

      {drawer}
    </Screen>
  );
}
