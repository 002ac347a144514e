import { Button, Dialog, Popup } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedState } from '../api/feed';
import { OrderStatus, type OrderStatusValue } from '../api/queries/orderKeys';
import {
  neverFilled,
  useCancelOrderMutation,
  useCloseOrderMutation,
  useOrdersQuery,
  useSetStopPriceMutation,
} from '../api/queries/orders';
import type { Order } from '../api/types';
import { PriceInput } from './PriceInput';
import { formatDateTime, formatLots, formatMoney, formatNumber, formatProfit } from '../i18n/format';
import './OrderList.css';

interface Selection {
  id: number;
  status: OrderStatusValue;
}

/** The detail popup; it reads the order from the cache, so live P&L keeps moving while it is open. */
export function OrderDetail({ selection, onClose }: { selection: Selection | null; onClose: () => void }) {
  const orders = useOrdersQuery(selection?.status ?? OrderStatus.holding, selection !== null);
  const order = selection ? orders.data?.pages.flatMap((page) => page.data).find((row) => row.Id === selection.id) : undefined;

  useEffect(() => {
    // A pushed close (FOREX_CLOSED) or a refresh removed the order: nothing left to show.
    if (selection && orders.isSuccess && !order) onClose();
  }, [selection, orders.isSuccess, order, onClose]);

  return (
    <Popup visible={Boolean(selection && order)} onMaskClick={onClose} bodyClassName="detail-popup" destroyOnClose>
      {order && selection && <DetailBody order={order} status={selection.status} onDone={onClose} />}
    </Popup>
  );
}

function DetailBody({ order, status, onDone }: { order: Order; status: OrderStatusValue; onDone: () => void }) {
  const { t } = useTranslation();
  const close = useCloseOrderMutation();
  const cancel = useCancelOrderMutation();
  const setStops = useSetStopPriceMutation();
  // As on the order ticket: a close fills at a price the user must see live, and while the lists are not
  // live either, a pending order shown may already have filled. Neither is asked for meanwhile.
  const feed = useFeedState();
  const stale = feed === 'offline' || feed === 'reconnecting';
  const precision = order.ForexTradeLists?.PricePrecision ?? 5;
  // The levels as the instrument writes its prices ("1.10000", not "1.1"), so an edit starts from them.
  const level = (value: number) => (value ? value.toFixed(precision) : '');
  const [takeProfit, setTakeProfit] = useState(level(order.TargetProfitPrice));
  const [stopLoss, setStopLoss] = useState(level(order.TargetLossPrice));
  const buy = order.OrderType === 1;
  const price = (value: number | null | undefined) => (value ? formatNumber(value, precision) : '--');

  const ticket: [string, string] = [t('receipt.ticket'), `#${order.Id}`];
  const placed: [string, string] = [
    t('order.created_at'),
    order.CreatedAt ? formatDateTime(order.CreatedAt) : order.CreateTimeHandler,
  ];
  const opened: [string, string] = [t('receipt.opened_at'), formatDateTime(order.OpenedAt)];
  const closed: [string, string] = [t('receipt.closed_at'), formatDateTime(order.ClosedAt)];
  // A pending order retired without a fill never had an exit price, a margin, a fee or a result.
  const rows: [string, string][] = neverFilled(order)
    ? [
        ticket,
        [t('order.side'), t(buy ? 'order.buy' : 'order.sell')],
        [t('order.lots'), formatLots(order.Quantity)],
        [t('order.target_price'), price(order.Price)],
        [t('order.take_profit'), price(order.TargetProfitPrice)],
        [t('order.stop_loss'), price(order.TargetLossPrice)],
        placed,
        closed,
        [t('order.status'), order.CloseReasonTran],
      ]
    : [
        ticket,
        [t('order.side'), t(buy ? 'order.buy' : 'order.sell')],
        [t('order.lots'), formatLots(order.Quantity)],
        [t(status === OrderStatus.pending ? 'order.target_price' : 'order.open_price'), price(order.Price)],
        [t(status === OrderStatus.history ? 'order.close_price' : 'order.current_price'), price(order.UpdatePrice)],
        [t('order.margin'), formatMoney(order.CautionMoney)],
        [t('order.fee'), formatMoney(order.TradeFee)],
        [t('order.take_profit'), price(order.TargetProfitPrice)],
        [t('order.stop_loss'), price(order.TargetLossPrice)],
        ...(status === OrderStatus.pending ? [placed] : status === OrderStatus.holding ? [opened] : [opened, closed]),
      ];
  if (!neverFilled(order) && status !== OrderStatus.pending) rows.push([t('order.profit'), formatProfit(order.FactProfits)]);
  if (!neverFilled(order) && status === OrderStatus.history && order.CloseReasonTran) {
    rows.push([t('order.close_reason'), order.CloseReasonTran]);
  }

  // One intent, one question and one request: a double tap neither stacks two dialogs nor confirms twice.
  const asking = useRef(false);
  const confirm = (content: string, action: () => Promise<unknown>) => {
    if (asking.current) return;
    asking.current = true;
    let acting = false;
    void Dialog.confirm({
      content,
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
      onConfirm: async () => {
        if (acting) return;
        acting = true;
        try {
          await action();
        } finally {
          acting = false;
        }
        onDone();
      },
    }).finally(() => {
      asking.current = false;
    });
  };

  return (
    <div role="dialog" aria-label={t('order.detail')} className="order-detail">
      <h2>
        {order.ForexTradeLists?.ShowCode}{' '}
        <span className={`side-tag ${buy ? 'side-buy' : 'side-sell'}`}>{t(buy ? 'order.buy' : 'order.sell')}</span>
      </h2>
      <dl className="detail-grid">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd className="num">{value}</dd>
          </div>
        ))}
      </dl>

      {status !== OrderStatus.history && (
        <form
          className="stops-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setStops.mutate({ id: order.Id, target_profit_price: takeProfit || '0', stop_loss_price: stopLoss || '0' });
          }}
        >
          <label>
            <span>{t('order.take_profit')}</span>
            <PriceInput value={takeProfit} onChange={setTakeProfit} label={t('order.take_profit')} />
          </label>
          <label>
            <span>{t('order.stop_loss')}</span>
            <PriceInput value={stopLoss} onChange={setStopLoss} label={t('order.stop_loss')} />
          </label>
          <Button type="submit" size="small" color="primary" fill="outline">
            {t('order.save_stops')}
          </Button>
        </form>
      )}

      {status !== OrderStatus.history && stale && (
        <p className="notice" role="status">
          {t(status === OrderStatus.holding ? 'order.close_paused' : 'order.cancel_paused')}
        </p>
      )}
      {status === OrderStatus.holding && (
        <Button
          block
          color="danger"
          disabled={feed !== 'live'}
          onClick={() => confirm(t('order.close_confirm'), () => close.close(order.Id))}
        >
          {t('order.close_position')}
        </Button>
      )}
      {status === OrderStatus.pending && (
        <Button
          block
          color="warning"
          disabled={feed !== 'live'}
          onClick={() => confirm(t('order.cancel_confirm'), () => cancel.mutateAsync(order.Id))}
        >
          {t('order.cancel_order')}
        </Button>
      )}
    </div>
  );
}
