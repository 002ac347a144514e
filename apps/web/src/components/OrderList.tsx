import { useTranslation } from 'react-i18next';
import { OrderStatus, type OrderStatusValue } from '../api/queries/orderKeys';
import { neverFilled, useOrdersQuery } from '../api/queries/orders';
import type { Order } from '../api/types';
import { profitTone } from './market';
import { PagedList } from './PagedList';
import { formatLots, formatNumber, formatProfit } from '../i18n/format';
import './OrderList.css';

export function OrderList({ status, onOpen }: { status: OrderStatusValue; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const orders = useOrdersQuery(status);
  const rows = orders.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <PagedList
      query={orders}
      rows={rows}
      label={t('order.list')}
      className="order-list"
      renderRow={(order) => <OrderRow key={order.Id} order={order} status={status} onOpen={onOpen} />}
    />
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
