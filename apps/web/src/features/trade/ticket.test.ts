import { chargePrice, dec, OrderSide, orderCharges } from '@pipwise/domain';
import { describe, expect, it } from 'vitest';
import type { TradePair } from '../../api/types';
import {
  initialTicket,
  placement,
  ticketFigures,
  ticketReducer,
  type TicketAction,
  type TicketNumbers,
  type TicketState,
} from './ticket';

/** EURUSD as the server lists it (bid 1.1, spread 0.00008). */
const eurusd: TradePair = {
  Id: 1,
  Code: 'EURUSD',
  ShowCode: 'EURUSD',
  Name: 'Euro / US Dollar',
  Logo: '/logos/eur.svg',
  CategoryId: 1,
  MarketStatus: 1,
  Session: 'forex',
  PricePrecision: 5,
  Pip: 0.01,
  ForexMinCont: 0.01,
  ForexMaxCont: 50,
  ForexContNum: 100000,
  ForexFeeRate: 0.005,
  MarginMode: 2,
  HasForexMultiple: [{ Value: 100 }, { Value: 200 }],
  ForexQuotations: { Open: 1.1, Close: 1.1, Change: 0, High: 1.1, Low: 1.1, Volume: 1, Bid: 1.1, Ask: 1.10008 },
  QuoteCurrency: 'USD',
  UsdRate: '1',
};

/** Plain figures, as English writes them. */
const plain: TicketNumbers = {
  parse: (text) => (text.trim() === '' ? Number.NaN : Number(text)),
  format: (value, decimals) => value.toFixed(decimals),
};
/** A decimal comma, as German writes it: the ticket reads and writes through what it is given. */
const comma: TicketNumbers = {
  parse: (text) => (text.trim() === '' ? Number.NaN : Number(text.replace(',', '.'))),
  format: (value, decimals) => value.toFixed(decimals).replace('.', ','),
};

const context = { pair: eurusd, numbers: plain };
const run = (actions: TicketAction[], numbers = plain, pair = eurusd) =>
  actions.reduce<TicketState>(
    (state, action) => ticketReducer(state, action, { pair, numbers }),
    initialTicket({ pair, numbers }),
  );

describe('the ticket state', () => {
  it('starts as a market order at the first leverage and the smallest lots', () => {
    expect(initialTicket(context)).toEqual({
      kind: 'market',
      leverage: 100,
      lotsText: '0.01',
      targetPrice: '',
      takeProfitOn: false,
      stopLossOn: false,
      takeProfit: '',
      stopLoss: '',
      refusedSide: null,
    });
    expect(initialTicket({ pair: { ...eurusd, HasForexMultiple: [] }, numbers: plain }).leverage).toBeUndefined();
    expect(initialTicket({ pair: eurusd, numbers: comma }).lotsText).toBe('0,01');
  });

  it('steps lots to the next valid value, within min and max, written in the reader’s numbers', () => {
    const stepped = (typed: string, direction: 1 | -1, numbers = plain) =>
      run(
        [
          { type: 'lots', text: typed },
          { type: 'step_lots', direction },
        ],
        numbers,
      ).lotsText;
    expect(run([{ type: 'step_lots', direction: 1 }]).lotsText).toBe('0.02');
    expect(stepped('0.015', 1)).toBe('0.02');
    expect(stepped('0.015', -1)).toBe('0.01');
    expect(run([{ type: 'step_lots', direction: -1 }]).lotsText).toBe('0.01');
    expect(stepped('50', 1)).toBe('50.00');
    expect(stepped('abc', 1)).toBe('0.01');
    expect(stepped('1,5', 1, comma)).toBe('1,51');
  });

  it('keeps each field as typed and switches levels on and off', () => {
    const state = run([
      { type: 'kind', kind: 'pending' },
      { type: 'leverage', leverage: 200 },
      { type: 'target', text: '1.05' },
      { type: 'level_on', level: 'take_profit', on: true },
      { type: 'level', level: 'take_profit', text: '1.2' },
      { type: 'level_on', level: 'stop_loss', on: true },
      { type: 'level', level: 'stop_loss', text: '1' },
      { type: 'level_on', level: 'stop_loss', on: false },
    ]);
    expect(state).toMatchObject({
      kind: 'pending',
      leverage: 200,
      targetPrice: '1.05',
      takeProfitOn: true,
      takeProfit: '1.2',
      stopLossOn: false,
      stopLoss: '1',
    });
  });
});

describe('the ticket figures', () => {
  const figures = (state: TicketState, feeType: number | undefined = 2) => ticketFigures(state, { ...context, feeType });
  const unknownFee = (state: TicketState) => ticketFigures(state, { ...context, feeType: undefined });
  const charged = (side: 1 | 2, lots: string, leverage: number, target?: string) => {
    const charges = orderCharges({
      lots,
      contractSize: eurusd.ForexContNum,
      marginMode: eurusd.MarginMode,
      price: chargePrice(side, { bid: eurusd.ForexQuotations.Bid, ask: eurusd.ForexQuotations.Ask }, target),
      leverage,
      usdRate: eurusd.UsdRate,
      feeType: 2,
      feeRate: eurusd.ForexFeeRate,
    });
    return { margin: charges.margin.toNumber(), fee: charges.fee.toNumber() };
  };

  it('estimate a market order at each side’s fill price with the domain’s orderCharges', () => {
    const state = run([{ type: 'lots', text: '0.1' }]);
    const shown = figures(state);
    expect(shown.estimate).toEqual({ buy: charged(OrderSide.buy, '0.1', 100), sell: charged(OrderSide.sell, '0.1', 100) });
    // 0.1 lot × 100,000 × 1.10008 ÷ 100 = 110.008; fee 0.5 % of it.
    expect(shown.estimate.buy).toEqual({ margin: 110.008, fee: 0.55 });
    expect(shown.lots).toBe('0.1');
  });

  it('estimate a pending order at its target, the same for both sides, and nothing until it has one', () => {
    const pending = run([{ type: 'kind', kind: 'pending' }]);
    expect(figures(pending).estimate).toEqual({ buy: null, sell: null });
    expect(
      figures(
        run([
          { type: 'kind', kind: 'pending' },
          { type: 'target', text: '0' },
        ]),
      ).target,
    ).toBeUndefined();
    const targeted = ticketReducer(pending, { type: 'target', text: '1.05' }, context);
    expect(figures(targeted).estimate).toEqual({
      buy: charged(OrderSide.buy, '0.01', 100, '1.05'),
      sell: charged(OrderSide.sell, '0.01', 100, '1.05'),
    });
  });

  it('estimate nothing before the fee setting is known or while the lots are refused', () => {
    expect(unknownFee(initialTicket(context)).estimate).toEqual({ buy: null, sell: null });
    const refused = figures(run([{ type: 'lots', text: '0.015' }]));
    expect(refused).toMatchObject({ lots: null, lotProblem: 'lots_off_step', estimate: { buy: null, sell: null } });
    expect(figures(run([{ type: 'lots', text: 'x' }])).lotProblem).toBe('lots_invalid');
    expect(figures(run([{ type: 'lots', text: '51' }])).lotProblem).toBe('lots_above_max');
  });

  it('disable − at the minimum and + at the maximum', () => {
    expect(figures(initialTicket(context))).toMatchObject({ canDecrease: false, canIncrease: true });
    expect(figures(run([{ type: 'lots', text: '50' }]))).toMatchObject({ canDecrease: true, canIncrease: false });
    expect(figures(run([{ type: 'lots', text: '' }]))).toMatchObject({ canDecrease: true, canIncrease: true });
  });

  it('show the refused levels of the side last tapped, and nothing once it is cleared', () => {
    const state = run([
      { type: 'level_on', level: 'take_profit', on: true },
      { type: 'level', level: 'take_profit', text: '1.09' },
      { type: 'level_on', level: 'stop_loss', on: true },
      { type: 'refused_side', side: OrderSide.buy },
    ]);
    expect(figures(state).levelRefusals).toEqual({
      take_profit: { problem: 'wrong_side', side: OrderSide.buy, reference: '1.1' },
      stop_loss: { problem: 'level_required' },
    });
    expect(figures(ticketReducer(state, { type: 'refused_side', side: null }, context)).levelRefusals).toEqual({});
  });
});

describe('placing from the ticket', () => {
  it('sends a market order with the lots as typed and the switched-on levels', () => {
    const state = run([
      { type: 'lots', text: '0.25' },
      { type: 'level_on', level: 'take_profit', on: true },
      { type: 'level', level: 'take_profit', text: '1.2' },
      { type: 'level_on', level: 'stop_loss', on: true },
      { type: 'level', level: 'stop_loss', text: '1.05' },
    ]);
    expect(placement(state, OrderSide.buy, context)).toEqual({
      outcome: 'send',
      request: {
        type: 1,
        cont: '0.25',
        forex_id: 1,
        status: 1,
        multiple: 100,
        target_profit_price: '1.2',
        stop_loss_price: '1.05',
      },
    });
  });

  it('sends a pending order with its target; levels are checked against it', () => {
    const state = run([
      { type: 'kind', kind: 'pending' },
      { type: 'target', text: '1.2' },
      { type: 'level_on', level: 'stop_loss', on: true },
      { type: 'level', level: 'stop_loss', text: '1.15' },
    ]);
    expect(placement(state, OrderSide.buy, context)).toEqual({
      outcome: 'send',
      request: { type: 1, cont: '0.01', forex_id: 1, status: 0, multiple: 100, target_price: '1.2', stop_loss_price: '1.15' },
    });
    expect(placement(state, OrderSide.sell, context)).toEqual({ outcome: 'levels_refused', side: OrderSide.sell });
  });

  it('sends nothing, in this order: no leverage, no target, refused lots, refused levels', () => {
    const noLeverage = initialTicket({ pair: { ...eurusd, HasForexMultiple: [] }, numbers: plain });
    expect(placement({ ...noLeverage, kind: 'pending' }, OrderSide.buy, context)).toEqual({
      outcome: 'missing',
      key: 'trade.leverage_missing',
    });
    expect(
      placement(
        run([
          { type: 'kind', kind: 'pending' },
          { type: 'lots', text: 'x' },
        ]),
        OrderSide.buy,
        context,
      ),
    ).toEqual({
      outcome: 'missing',
      key: 'trade.price_required',
    });
    const badLots = run([
      { type: 'lots', text: '0.015' },
      { type: 'level_on', level: 'take_profit', on: true },
    ]);
    expect(placement(badLots, OrderSide.buy, context)).toEqual({ outcome: 'lots_refused' });
    expect(placement(run([{ type: 'level_on', level: 'take_profit', on: true }]), OrderSide.buy, context)).toEqual({
      outcome: 'levels_refused',
      side: OrderSide.buy,
    });
  });

  it("refuses what the account cannot afford by the server's rule, to the cent; a pending order pays no fee yet", () => {
    const state = run([{ type: 'lots', text: '1' }]);
    const { margin, fee } = orderCharges({
      lots: '1',
      contractSize: eurusd.ForexContNum,
      marginMode: eurusd.MarginMode,
      price: chargePrice(OrderSide.buy, { bid: eurusd.ForexQuotations.Bid, ask: eurusd.ForexQuotations.Ask }),
      leverage: 100,
      usdRate: eurusd.UsdRate,
      feeType: 2,
      feeRate: eurusd.ForexFeeRate,
    });
    const needed = margin.plus(fee).toNumber();
    const room = (freeMargin: number, balance = 5000) => ({ freeMargin, balance, feeType: 2 });
    expect(placement(state, OrderSide.buy, context, room(needed))).toMatchObject({ outcome: 'send' });
    expect(placement(state, OrderSide.buy, context, room(dec(needed).minus('0.01').toNumber()))).toEqual({
      outcome: 'unaffordable',
      reason: 'insufficient_margin',
    });
    const littleCash = dec(fee).minus('0.01').toNumber();
    expect(placement(state, OrderSide.buy, context, room(needed, littleCash))).toEqual({
      outcome: 'unaffordable',
      reason: 'insufficient_balance',
    });
    const pending = run([
      { type: 'lots', text: '1' },
      { type: 'kind', kind: 'pending' },
      { type: 'target', text: '1.1' },
    ]);
    expect(placement(pending, OrderSide.buy, context, room(needed, littleCash))).toMatchObject({ outcome: 'send' });
    // Without the account's figures the server decides alone.
    expect(placement(state, OrderSide.buy, context)).toMatchObject({ outcome: 'send' });
  });

  it('sends lots typed with a decimal comma as the plain figure the server takes', () => {
    const state = run([{ type: 'lots', text: '1,5' }], comma);
    const decided = placement(state, OrderSide.sell, { pair: eurusd, numbers: comma });
    expect(decided).toMatchObject({ outcome: 'send', request: { cont: '1.5', type: 2 } });
    expect(dec((decided as { request: { cont: string } }).request.cont).equals('1.5')).toBe(true);
  });
});
