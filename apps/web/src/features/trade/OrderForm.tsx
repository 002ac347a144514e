import { freeMargin, OrderSide, OrderStatus, type OrderSideValue } from '@pipwise/domain';
import { Button, Selector, Switch } from 'antd-mobile';
import { AddOutline, MinusOutline } from 'antd-mobile-icons';
import { lazy, memo, Suspense, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useLocation, useNavigate } from 'react-router';
import { useFeedState } from '../../api/feed';
import { useAccountFiguresQuery, useBalanceQuery, useLiveAccountQuery } from '../../api/queries/account';
import { useBasicInfoQuery } from '../../api/queries/auth';
import { notify } from '../../api/http';
import { useSubmitOrderMutation } from '../../api/queries/orders';
import type { AccountFigures, ForexTradePush, Order, TradePair } from '../../api/types';
import { loginPath, Paths } from '../../routing/paths';
import { Price } from '../../components/market';
import { PriceInput } from '../../components/PriceInput';
import { formatMoney, formatNumber, parseNumber } from '../../i18n/format';
import { useSession } from '../../stores/session';
import { isOpen } from '../../components/PairRow';
import { decimalsOf, quoteOf, wrongSideKey, type Level, type LotProblem } from './estimate';
import {
  initialTicket,
  placement,
  ticketFigures,
  ticketReducer,
  type AccountRoom,
  type LevelRefusal,
  type TicketAction,
  type TicketKind,
  type TicketState,
} from './ticket';
import { formatOpening, nextOpening } from '../../components/opening';

/**
 * The receipt and its popup (with antd-mobile's animation library under it) are a chunk of their own,
 * asked for by the ticket's first render and not waited for: the first paint carries neither.
 */
const OrderReceiptPopup = lazy(() => import('./OrderReceipt'));

/** The ticket reads and writes numbers in the reader's language. */
const numbers = { parse: parseNumber, format: (value: number, decimals: number) => formatNumber(value, decimals) };

/**
 * The account's room for an order: the server's free margin, or, once a push has moved the floating P&L
 * and used margin, the free margin worked out again from them by the domain's rule (as the wallet shows
 * it). Unknown until the figures and the fee setting are loaded; the server then decides alone.
 */
function accountRoom(
  figures: AccountFigures | undefined,
  push: ForexTradePush | null | undefined,
  feeType: number | undefined,
): AccountRoom | undefined {
  if (!figures || feeType === undefined) return undefined;
  const free = push
    ? freeMargin({
        balance: figures.balance,
        floating: push.ProfitsTotal,
        usedMargin: push.CautionMoneyAll,
        locked: figures.lock_balance,
      }).toNumber()
    : figures.available_prepayment;
  return { freeMargin: free, balance: figures.balance, feeType };
}

/**
 * The order ticket (docs/api.md: trade, order rules): the view of `ticket.ts`, whose state, actions and
 * figures it renders; what only a screen does stays here (the session, the live feed, sending, the popup).
 * Memoised: the trade screen renders on every pair's tick, the ticket only on its own pair's.
 */
export const OrderForm = memo(function OrderForm({ pair }: { pair: TradePair }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const token = useSession((state) => state.token);
  const balance = useBalanceQuery();
  const accountFigures = useAccountFiguresQuery();
  const live = useLiveAccountQuery();
  const basicInfo = useBasicInfoQuery();
  const submit = useSubmitOrderMutation();
  // Orders fill at the price on screen: none is sent while that price is not live.
  const feed = useFeedState();
  const stale = feed === 'offline' || feed === 'reconnecting';

  const context = { pair, numbers };
  const [ticket, dispatch] = useReducer(
    (state: TicketState, action: TicketAction) => ticketReducer(state, action, context),
    context,
    initialTicket,
  );
  const { kind } = ticket;
  const feeType = basicInfo.data?.trade_fee_type;
  const figures = ticketFigures(ticket, { ...context, feeType });
  const room = accountRoom(accountFigures.data, live.data, feeType);
  /** The order the server placed, shown on its receipt until the trader moves on. */
  const [placed, setPlaced] = useState<Order | null>(null);
  /** When the result popup opened (event-clock time), so a tap made before it cannot dismiss it. */
  const placedAt = useRef(0);
  /**
   * Set the moment an order is placed, before React draws its receipt: a tap handled before the receipt
   * covers the screen places nothing. Cleared when the receipt closes.
   */
  const receiptDue = useRef(false);
  const closeReceipt = () => {
    receiptDue.current = false;
    setPlaced(null);
  };

  const leverages = (pair.HasForexMultiple ?? []).map((option) => option.Value);
  const open = isOpen(pair);
  const { bid, ask } = quoteOf(pair);
  const buyEstimate = figures.estimate.buy;
  const sellEstimate = figures.estimate.sell;

  /** The message of a refused take profit or stop loss, its reference price in the reader's digits. */
  const levelMessage = (level: Level, refusal: LevelRefusal | undefined) => {
    if (!refusal) return undefined;
    if (refusal.problem !== 'wrong_side') return t(`trade.${refusal.problem}`);
    return t(wrongSideKey(level, refusal.side), { price: formatNumber(Number(refusal.reference), pair.PricePrecision) });
  };

  function place(side: OrderSideValue) {
    if (receiptDue.current) return;
    if (!token) {
      void navigate(loginPath(location.pathname));
      return;
    }
    if (feed !== 'live') {
      notify(t('common.prices_not_live'));
      return;
    }
    const decided = placement(ticket, side, context, room);
    switch (decided.outcome) {
      case 'missing':
        notify(t(decided.key));
        return;
      case 'unaffordable':
        notify(t(`trade.${decided.reason}`));
        return;
      case 'lots_refused':
        // Refused input is shown next to its field and nothing is sent.
        return;
      case 'levels_refused':
        dispatch({ type: 'refused_side', side });
        return;
      case 'send':
        dispatch({ type: 'refused_side', side: null });
        submit.submit(decided.request, (order) => {
          receiptDue.current = true;
          placedAt.current = performance.now();
          setPlaced(order);
        });
    }
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
            onClick={() => dispatch({ type: 'kind', kind: value })}
          >
            {t(value === 'market' ? 'trade.market_order' : 'trade.pending_order')}
          </button>
        ))}
      </div>

      {!open && <ClosedNotice pair={pair} />}

      {kind === 'pending' && (
        <label className="form-row">
          <span>{t('trade.target_price')}</span>
          <PriceInput
            value={ticket.targetPrice}
            onChange={(text) => dispatch({ type: 'target', text })}
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
            value={ticket.leverage ? [ticket.leverage] : []}
            onChange={(values) => values[0] && dispatch({ type: 'leverage', leverage: values[0] })}
            aria-label={t('trade.leverage')}
          />
        )}
      </div>

      <div className="form-row">
        <span id="lots-label">{t('trade.lots')}</span>
        <div className="lot-input">
          <button
            type="button"
            aria-label={t('common.decrease')}
            disabled={!figures.canDecrease}
            onClick={() => dispatch({ type: 'step_lots', direction: -1 })}
          >
            <MinusOutline />
          </button>
          <input
            type="text"
            inputMode="decimal"
            autoComplete="off"
            aria-labelledby="lots-label"
            aria-invalid={!figures.lots}
            aria-describedby={figures.lots ? undefined : 'lots-rule'}
            value={ticket.lotsText}
            onChange={(event) => dispatch({ type: 'lots', text: event.target.value })}
          />
          <button
            type="button"
            aria-label={t('common.increase')}
            disabled={!figures.canIncrease}
            onClick={() => dispatch({ type: 'step_lots', direction: 1 })}
          >
            <AddOutline />
          </button>
        </div>
      </div>
      {figures.lotProblem && (
        <p id="lots-rule" className="field-error" role="alert">
          {lotRule(figures.lotProblem, pair, t)}
        </p>
      )}

      <ToggledPrice
        title={t('trade.take_profit')}
        on={ticket.takeProfitOn}
        onToggle={(on) => dispatch({ type: 'level_on', level: 'take_profit', on })}
        value={ticket.takeProfit}
        onChange={(text) => dispatch({ type: 'level', level: 'take_profit', text })}
        placeholder={t('trade.take_profit_placeholder')}
        label={t('trade.take_profit_price')}
        refusal={levelMessage('take_profit', figures.levelRefusals.take_profit)}
      />
      <ToggledPrice
        title={t('trade.stop_loss')}
        on={ticket.stopLossOn}
        onToggle={(on) => dispatch({ type: 'level_on', level: 'stop_loss', on })}
        value={ticket.stopLoss}
        onChange={(text) => dispatch({ type: 'level', level: 'stop_loss', text })}
        placeholder={t('trade.stop_loss_placeholder')}
        label={t('trade.stop_loss_price')}
        refusal={levelMessage('stop_loss', figures.levelRefusals.stop_loss)}
      />

      <dl className="estimate">
        <div>
          <dt>{t('trade.margin')}</dt>
          <EstimateValues
            kind={kind}
            name="margin"
            buy={formatMoney(buyEstimate?.margin)}
            sell={formatMoney(sellEstimate?.margin)}
          />
        </div>
        <div>
          <dt>{t('trade.fee')}</dt>
          <EstimateValues kind={kind} name="fee" buy={formatMoney(buyEstimate?.fee)} sell={formatMoney(sellEstimate?.fee)} />
        </div>
        <div>
          <dt>{t('trade.balance')}</dt>
          <dd className="num" data-testid="trade-balance">
            {token && balance.data ? formatMoney(balance.data.balance) : '--'}
          </dd>
        </div>
      </dl>

      {open && stale && (
        <p className="notice" role="status">
          {t('trade.orders_paused')}
        </p>
      )}
      <div className="trade-buttons">
        <Button
          className="buy-button"
          block
          disabled={!open || leverages.length === 0 || feed !== 'live' || submit.sending}
          onClick={() => place(OrderSide.buy)}
          aria-label={t('trade.buy')}
        >
          <span>{t('trade.buy')}</span>
          <Price value={ask} precision={pair.PricePrecision} />
        </Button>
        <Button
          className="sell-button"
          block
          disabled={!open || leverages.length === 0 || feed !== 'live' || submit.sending}
          onClick={() => place(OrderSide.sell)}
          aria-label={t('trade.sell')}
        >
          <span>{t('trade.sell')}</span>
          <Price value={bid} precision={pair.PricePrecision} />
        </Button>
      </div>

      {/* An order placed before the popup's code arrived holds the screen until it does, so the second tap of
          a double tap cannot reach Buy again. */}
      <Suspense fallback={placed && <div className="receipt-waiting" role="status" aria-label={t('common.loading')} />}>
        <OrderReceiptPopup
          placed={placed}
          placedAt={placedAt.current}
          onView={(order) => {
            closeReceipt();
            // The tab the order is in now, as the server answered: a pending order's is Pending.
            void navigate(
              `${Paths.order}?type=${order.Status === OrderStatus.pending ? OrderStatus.pending : OrderStatus.holding}`,
            );
          }}
          onClose={closeReceipt}
        />
      </Suspense>
    </section>
  );
});

/** Why orders are off while the market is closed, and when it opens again. */
function ClosedNotice({ pair }: { pair: TradePair }) {
  const { t } = useTranslation();
  const opening = nextOpening(pair, Date.now());
  return (
    <p className="notice" role="status" data-testid="market-closed">
      {opening === null ? t('trade.market_closed') : t('finder.opens_at', { time: formatOpening(opening) })}
    </p>
  );
}

/**
 * A market order's estimate for each side, as each fills at its own side of the spread; a pending
 * order's single one, as either side fills at the target.
 */
function EstimateValues(props: { kind: TicketKind; name: 'margin' | 'fee'; buy: string; sell: string }) {
  const { t } = useTranslation();
  if (props.kind === 'pending') {
    return (
      <dd className="num" data-testid={`estimate-${props.name}`}>
        {props.buy}
      </dd>
    );
  }
  return (
    <dd className="num">
      <span className="estimate-line" data-testid={`estimate-${props.name}-buy`}>
        <span className="estimate-side">{t('trade.buy')}</span> {props.buy}
      </span>
      <span className="estimate-line" data-testid={`estimate-${props.name}-sell`}>
        <span className="estimate-side">{t('trade.sell')}</span> {props.sell}
      </span>
    </dd>
  );
}

/** The lot rule the typed lots break, with its figure in the reader's digits. */
function lotRule(problem: LotProblem, pair: TradePair, t: TFunction) {
  const figure = (value: number) => formatNumber(value, decimalsOf(value));
  switch (problem) {
    case 'lots_below_min':
      return t('trade.lots_min', { count: pair.ForexMinCont, min: figure(pair.ForexMinCont) });
    case 'lots_above_max':
      return t('trade.lots_max', { count: pair.ForexMaxCont, max: figure(pair.ForexMaxCont) });
    case 'lots_off_step':
      return t('trade.lots_step', { count: pair.Pip, step: figure(pair.Pip) });
    case 'lots_invalid':
      return t('trade.lots_range', { min: figure(pair.ForexMinCont), max: figure(pair.ForexMaxCont) });
  }
}

/** Take profit or stop loss: a switch, and the price once it is on, with the reason it was refused. */
function ToggledPrice(props: {
  title: string;
  on: boolean;
  onToggle: (on: boolean) => void;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  label: string;
  refusal?: string | undefined;
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
      {props.on && props.refusal && (
        <p className="field-error" role="alert">
          {props.refusal}
        </p>
      )}
    </>
  );
}
