import { InfiniteScroll, PullToRefresh } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { neverFilled, OrderStatus, useOrdersQuery, type OrderStatusValue } from '../../api/queries/orders';
import type { Order } from '../../api/types';
import { profitTone } from '../../components/market';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import { formatLots, formatNumber, formatProfit } from '../../i18n/format';

/** Spec §4: pull-to-refresh closes after 500 ms. */
const REFRESH_CLOSE_MS = 500;

export function OrderList({ status, onOpen }: { status: OrderStatusValue; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const orders = useOrdersQuery(status);
  const rows = orders.data?.pages.flatMap((page) => page.data) ?? [];

  const refresh = async () => {
    await Promise.all([orders.refetch(), new Promise((resolve) => setTimeout(resolve, REFRESH_CLOSE_MS))]);
  };

  return (
    <PullToRefresh
      onRefresh={refresh}
      pullingText={t('common.pull_to_refresh')}
      canReleaseText={t('common.release_to_refresh')}
      refreshingText={t('common.loading')}
      completeText={t('common.refreshed')}
    >
      {orders.isPending ? (
        <ListSkeleton />
      ) : orders.isError && rows.length === 0 ? (
        <ErrorState onRetry={() => void orders.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState />
      ) : (
        <>
          <ul className="order-list" aria-label={t('order.list')}>
            {rows.map((order) => (
              <OrderRow key={order.Id} order={order} status={status} onOpen={onOpen} />
            ))}
          </ul>
          <InfiniteScroll
            hasMore={orders.hasNextPage}
            loadMore={async () => {
              await orders.fetchNextPage();
            }}
          >
            <span className="list-end">{orders.hasNextPage ? t('common.loading') : t('common.no_more')}</span>
          </InfiniteScroll>
        </>
      )}
    </PullToRefresh>
  );
}

function OrderRow({ order, status, onOpen }: { order: Order; status: OrderStatusValue; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const precision = order.ForexTradeLists?.PricePrecision ?? 5;
  const buy = order.OrderType === 1;
  const profit = order.FactProfits ?? 0;
  return (
    <li>
      <button type="button" className="order-row" data-order-id={order.Id} onClick={() => onOpen(order.Id)}>
        <span className="order-row-head">
          <span className={`side-tag ${buy ? 'side-buy' : 'side-sell'}`}>{t(buy ? 'order.buy' : 'order.sell')}</span>
          <span className="pair-code">{order.ForexTradeLists?.ShowCode}</span>
          <span className="order-lots">{t('order.lots_value', { count: order.Quantity, lots: formatLots(order.Quantity) })}</span>
        </span>
        {neverFilled(order) ? (
          <>
            <span className="order-row-prices">
              <span className="num">{formatNumber(order.Price, precision)}</span>
            </span>
            <span className="order-outcome" data-testid="order-outcome">
              {order.CloseReasonTran}
            </span>
          </>
        ) : (
          <>
            <span className="order-row-prices">
              <span className="num">{formatNumber(order.Price, precision)}</span>
              <span aria-hidden="true">→</span>
              <span className="num">{formatNumber(order.UpdatePrice, precision)}</span>
            </span>
            {status !== OrderStatus.pending && (
              <span className={`num order-profit ${profitTone(profit)}`} data-testid="order-profit">
                {formatProfit(profit)}
              </span>
            )}
          </>
        )}
      </button>
    </li>
  );
}
