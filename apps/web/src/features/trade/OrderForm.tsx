import { OrderSide, OrderStatus, type OrderSideValue } from '@pipwise/domain';
import { Button, Popup, Selector, Stepper, Switch, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useBalanceQuery } from '../../api/queries/account';
import { useBasicInfoQuery } from '../../api/queries/auth';
import { useSubmitOrderMutation } from '../../api/queries/orders';
import type { TradePair } from '../../api/types';
import { loginPath, Paths } from '../../app/paths';
import { Price } from '../../components/market';
import { PriceInput } from '../../components/PriceInput';
import { formatMoney, formatNumber } from '../../i18n/format';
import { useSession } from '../../stores/session';
import { isOpen } from '../home/PairRow';
import { decimalsOf, estimateOrder, quoteOf } from './estimate';

type Kind = 'market' | 'pending';

/** The order ticket (spec §2 trade, §5 order rules). */
export function OrderForm({ pair, pairs }: { pair: TradePair; pairs: TradePair[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const token = useSession((state) => state.token);
  const balance = useBalanceQuery();
  const basicInfo = useBasicInfoQuery();
  const submit = useSubmitOrderMutation();

  const leverages = (pair.HasForexMultiple ?? []).map((option) => option.Value);
  const [kind, setKind] = useState<Kind>('market');
  const [leverage, setLeverage] = useState<number | undefined>(leverages[0]);
  const [lots, setLots] = useState<number>(pair.ForexMinCont);
  const [targetPrice, setTargetPrice] = useState('');
  const [takeProfitOn, setTakeProfitOn] = useState(false);
  const [stopLossOn, setStopLossOn] = useState(false);
  const [takeProfit, setTakeProfit] = useState('');
  const [stopLoss, setStopLoss] = useState('');
  const [placed, setPlaced] = useState(false);

  const open = isOpen(pair);
  const { bid, ask } = quoteOf(pair);
  const lotDigits = decimalsOf(pair.Pip);
  const estimate = leverage
    ? estimateOrder({ pair, pairs, lots, leverage, feeType: basicInfo.data?.trade_fee_type ?? 1, side: OrderSide.buy })
    : null;

  function place(side: OrderSideValue) {
    if (!token) {
      void navigate(loginPath(location.pathname));
      return;
    }
    if (!leverage) {
      Toast.show({ content: t('trade.leverage_missing') });
      return;
    }
    if (kind === 'pending' && !(Number(targetPrice) > 0)) {
      Toast.show({ content: t('trade.price_required') });
      return;
    }
    submit.mutate(
      {
        type: side,
        cont: lots.toFixed(lotDigits),
        forex_id: pair.Id,
        status: kind === 'market' ? OrderStatus.holding : OrderStatus.pending,
        multiple: leverage,
        ...(kind === 'pending' ? { target_price: targetPrice } : {}),
        ...(takeProfitOn && takeProfit ? { target_profit_price: takeProfit } : {}),
        ...(stopLossOn && stopLoss ? { stop_loss_price: stopLoss } : {}),
      },
      { onSuccess: () => setPlaced(true) },
    );
  }

  return (
    <section className="order-form" aria-label={t('trade.order_form')}>
      <div className="form-tabs" role="tablist">
        {(['market', 'pending'] as const).map((value) => (
          <button
            type="button"
            role="tab"
            key={value}
            aria-selected={kind === value}
            className={`form-tab${kind === value ? ' form-tab-active' : ''}`}
            onClick={() => setKind(value)}
          >
            {t(value === 'market' ? 'trade.market_order' : 'trade.pending_order')}
          </button>
        ))}
      </div>

      {!open && (
        <p className="notice" role="status">
          {t('trade.market_closed')}
        </p>
      )}

      {kind === 'pending' && (
        <label className="form-row">
          <span>{t('trade.target_price')}</span>
          <PriceInput
            value={targetPrice}
            onChange={setTargetPrice}
            placeholder={t('trade.target_price_placeholder')}
            label={t('trade.target_price')}
          />
        </label>
      )}

      <div className="form-row">
        <span>{t('trade.leverage')}</span>
        {leverages.length === 0 ? (
          <span className="notice">{t('trade.leverage_missing')}</span>
        ) : (
          <Selector
            columns={4}
            options={leverages.map((value) => ({ label: t('trade.leverage_value', { value }), value }))}
            value={leverage ? [leverage] : []}
            onChange={(values) => values[0] && setLeverage(values[0])}
            aria-label={t('trade.leverage')}
          />
        )}
      </div>

      <div className="form-row">
        <span id="lots-label">{t('trade.lots')}</span>
        <Stepper
          aria-labelledby="lots-label"
          value={lots}
          min={pair.ForexMinCont}
          max={pair.ForexMaxCont}
          step={pair.Pip}
          digits={lotDigits}
          onChange={(value) => setLots(value ?? pair.ForexMinCont)}
        />
      </div>

      <ToggledPrice
        title={t('trade.take_profit')}
        on={takeProfitOn}
        onToggle={setTakeProfitOn}
        value={takeProfit}
        onChange={setTakeProfit}
        placeholder={t('trade.take_profit_placeholder')}
        label={t('trade.take_profit_price')}
      />
      <ToggledPrice
        title={t('trade.stop_loss')}
        on={stopLossOn}
        onToggle={setStopLossOn}
        value={stopLoss}
        onChange={setStopLoss}
        placeholder={t('trade.stop_loss_placeholder')}
        label={t('trade.stop_loss_price')}
      />

      <dl className="estimate">
        <div>
          <dt>{t('trade.margin')}</dt>
          <dd className="num">{estimate ? formatNumber(estimate.margin, 6) : '--'}</dd>
        </div>
        <div>
          <dt>{t('trade.fee')}</dt>
          <dd className="num">{estimate ? formatMoney(estimate.fee) : '--'}</dd>
        </div>
        <div>
          <dt>{t('trade.balance')}</dt>
          <dd className="num" data-testid="trade-balance">
            {token && balance.data ? formatMoney(balance.data.balance) : '--'}
          </dd>
        </div>
      </dl>

      <div className="trade-buttons">
        <Button
          className="buy-button"
          block
          disabled={!open || leverages.length === 0}
          onClick={() => place(OrderSide.buy)}
          aria-label={t('trade.buy')}
        >
          <span>{t('trade.buy')}</span>
          <Price value={ask} precision={pair.PricePrecision} />
        </Button>
        <Button
          className="sell-button"
          block
          disabled={!open || leverages.length === 0}
          onClick={() => place(OrderSide.sell)}
          aria-label={t('trade.sell')}
        >
          <span>{t('trade.sell')}</span>
          <Price value={bid} precision={pair.PricePrecision} />
        </Button>
      </div>

      <Popup visible={placed} onMaskClick={() => setPlaced(false)} bodyClassName="result-popup">
        <div role="dialog" aria-label={t('trade.order_placed')}>
          <h2>{t('trade.order_placed')}</h2>
          <p>{t('trade.order_placed_hint')}</p>
          <Button
            block
            color="primary"
            onClick={() => {
              setPlaced(false);
              void navigate(`${Paths.order}?type=${kind === 'market' ? OrderStatus.holding : OrderStatus.pending}`);
            }}
          >
            {t('trade.view_orders')}
          </Button>
          <Button block fill="none" onClick={() => setPlaced(false)}>
            {t('trade.continue_trading')}
          </Button>
        </div>
      </Popup>
    </section>
  );
}

/** Take profit or stop loss: a switch, and the price once it is on. */
function ToggledPrice(props: {
  title: string;
  on: boolean;
  onToggle: (on: boolean) => void;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  label: string;
}) {
  return (
    <>
      <div className="form-row">
        <span>{props.title}</span>
        <Switch checked={props.on} onChange={props.onToggle} aria-label={props.title} />
      </div>
      {props.on && (
        <PriceInput
          className="form-input"
          value={props.value}
          onChange={props.onChange}
          placeholder={props.placeholder}
          label={props.label}
        />
      )}
    </>
  );
}
