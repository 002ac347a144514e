import { SocketTopic } from '@pipwise/domain';
import { Tabs } from 'antd-mobile';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSocketMessage, useTopic } from '../../api/live';
import { useAccountFiguresQuery, useLiveAccountQuery } from '../../api/queries/account';
import { OrderStatus, type OrderStatusValue } from '../../api/queries/orderKeys';
import { profitTone } from '../../components/market';
import { LazyAccountMode } from '../../components/LazyAccountMode';
import { LazyNoticeBell } from '../../components/LazyNoticeBell';
import { Screen } from '../../components/Screen';
import { formatMoney, formatProfit } from '../../i18n/format';
import { OrderDetail } from '../../components/OrderDetail';
import { OrderList } from '../../components/OrderList';
import './order.css';

const RiskPanel = lazy(() => import('../../components/RiskPanel'));

const TABS = [
  { status: OrderStatus.holding, labelKey: 'order.holding' },
  { status: OrderStatus.pending, labelKey: 'order.pending' },
  { status: OrderStatus.history, labelKey: 'order.history' },
] as const;

function statusFrom(type: string | null): OrderStatusValue | null {
  const value = Number(type);
  return type !== null && TABS.some((tab) => tab.status === value) ? (value as OrderStatusValue) : null;
}

export default function OrderPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const typeParam = params.get('type');
  const [status, setStatus] = useState<OrderStatusValue>(() => statusFrom(typeParam) ?? OrderStatus.holding);
  const [selected, setSelected] = useState<{ id: number; status: OrderStatusValue } | null>(null);
  const figures = useAccountFiguresQuery();
  const live = useLiveAccountQuery();
  const floating = live.data?.ProfitsTotal ?? figures.data?.floating_profit;
  const usedMargin = live.data?.CautionMoneyAll ?? figures.data?.current_margin;
  // Fills, closes and cancels are listened to by the app shell, on every screen.
  useTopic(SocketTopic.forexTrade);
  useTopic(SocketTopic.dayMarket);

  // The screen stays alive between visits, so a later `?type=` must still pick the tab.
  useEffect(() => {
    const wanted = statusFrom(typeParam);
    if (wanted !== null) setStatus(wanted);
  }, [typeParam]);

  const onClosed = useCallback((data: unknown) => {
    const ids = new Set((Array.isArray(data) ? data : [data]).map(Number));
    setSelected((current) => (current && ids.has(current.id) ? null : current));
  }, []);
  useSocketMessage(SocketTopic.forexClosed, onClosed);

  return (
    <Screen withTabBar>
      <section className="account-strip" aria-label={t('order.account')}>
        <div className="account-strip-actions">
          <LazyAccountMode />
          <LazyNoticeBell />
        </div>
        <div>
          <span className="label">{t('order.balance')}</span>
          <span className="num" data-testid="order-balance">
            {formatMoney(figures.data?.balance)}
          </span>
        </div>
        <div>
          <span className="label">{t('order.floating_profit')}</span>
          <span className={`num ${profitTone(floating)}`}>{formatProfit(floating)}</span>
        </div>
        <div>
          <span className="label">{t('order.used_margin')}</span>
          <span className="num">{formatMoney(usedMargin)}</span>
        </div>
      </section>
      <Suspense fallback={<div className="risk-panel" aria-busy="true" />}>
        <RiskPanel />
      </Suspense>
      <Tabs
        activeKey={String(status)}
        onChange={(key) => setStatus(Number(key) as OrderStatusValue)}
        className="order-tabs"
        stretch
      >
        {TABS.map((tab) => (
          <Tabs.Tab key={String(tab.status)} title={t(tab.labelKey)} />
        ))}
      </Tabs>
      <OrderList key={status} status={status} onOpen={(id) => setSelected({ id, status })} />
      <OrderDetail selection={selected} onClose={() => setSelected(null)} />
    </Screen>
  );
}
