import { OrderStatus } from '@pipwise/domain';
import { Button, Popup } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { Order } from '../../api/types';
import { formatLots, formatMoney, formatNumber } from '../../i18n/format';
import './receipt.css';

/**
 * The popup of the order just placed, open while `placed` is set. On a slow phone the second tap of a
 * double tap on Buy is handled after the answer opened it and lands on its mask: a tap that began before
 * the popup opened (`placedAt`, event-clock time) does not close it.
 */
export default function OrderReceiptPopup({
  placed,
  placedAt,
  onView,
  onClose,
}: {
  placed: Order | null;
  placedAt: number;
  onView: (order: Order) => void;
  onClose: () => void;
}) {
  return (
    <Popup
      visible={placed !== null}
      onMaskClick={(event) => {
        if (event.timeStamp > placedAt) onClose();
      }}
      bodyClassName="result-popup"
    >
      {placed && <OrderReceipt order={placed} onView={() => onView(placed)} onClose={onClose} />}
    </Popup>
  );
}

/**
 * What the server placed, as it answered: the ticket number, the price it filled at (a pending order's
 * target), lots, leverage, margin and fee.
 */
function OrderReceipt({ order, onView, onClose }: { order: Order; onView: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const pending = order.Status === OrderStatus.pending;
  const precision = order.ForexTradeLists.PricePrecision;
  const rows: [name: string, label: string, value: string][] = [
    ['ticket', t('receipt.ticket'), `#${order.Id}`],
    ['price', t(pending ? 'order.target_price' : 'receipt.fill_price'), formatNumber(order.Price, precision)],
    ['lots', t('order.lots'), formatLots(order.Quantity)],
    ['leverage', t('trade.leverage'), t('trade.leverage_value', { value: order.Multiple })],
    ['margin', t('order.margin'), formatMoney(order.CautionMoney)],
    ['fee', t('order.fee'), formatMoney(order.TradeFee)],
  ];
  return (
    <div role="dialog" aria-label={t('trade.order_placed')}>
      <h2>{t('trade.order_placed')}</h2>
      <p className="receipt-pair">
        <span translate="no">{order.ForexTradeLists.ShowCode}</span>{' '}
        <span className={order.OrderType === 1 ? 'text-up' : 'text-down'}>
          {t(order.OrderType === 1 ? 'order.buy' : 'order.sell')}
        </span>
      </p>
      <dl className="receipt-grid">
        {rows.map(([name, label, value]) => (
          <div key={name}>
            <dt>{label}</dt>
            <dd className="num" data-testid={`receipt-${name}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <p>{t('trade.order_placed_hint')}</p>
      <Button block color="primary" onClick={onView}>
        {t(pending ? 'receipt.view_pending' : 'trade.view_orders')}
      </Button>
      <Button block fill="none" onClick={onClose}>
        {t('trade.continue_trading')}
      </Button>
    </div>
  );
}
