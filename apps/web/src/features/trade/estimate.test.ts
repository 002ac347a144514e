import { dec, OrderSide, orderCharges } from '@pipwise/domain';
import { describe, expect, it } from 'vitest';
import type { TradePair } from '../../api/types';
import { checkLevel, checkLots, estimateOrder, stepLots, wrongSideKey } from './estimate';

const yenRate = dec(1).dividedBy('154.512').toFixed();

/** JPN225 as the server lists it: quoted in yen, with the yen's USD rate. */
const jpn225: TradePair = {
  Id: 27,
  Code: 'JPN225',
  ShowCode: 'JPN225',
  Name: 'Japan 225',
  Logo: '/logos/index.svg',
  CategoryId: 4,
  MarketStatus: 1,
  Session: 'cfd',
  PricePrecision: 0,
  Pip: 0.1,
  ForexMinCont: 0.1,
  ForexMaxCont: 100,
  ForexContNum: 1,
  ForexFeeRate: 0.005,
  MarginMode: 2,
  HasForexMultiple: [{ Value: 10 }],
  ForexQuotations: { Open: 49000, Close: 49500, Change: 1.02, High: 49600, Low: 48900, Volume: 10, Bid: 49500, Ask: 49508 },
  QuoteCurrency: 'JPY',
  UsdRate: yenRate,
};

const charged = (price: string) =>
  orderCharges({
    lots: '0.3',
    contractSize: 1,
    marginMode: 2,
    price,
    leverage: 10,
    usdRate: yenRate,
    feeType: 2,
    feeRate: 0.005,
  });

describe('the order ticket estimate', () => {
  const base = { pair: jpn225, lots: '0.3', leverage: 10, feeType: 2 };

  it('charges a buy at the ask and a sell at the bid, converted from yen at the listed rate', () => {
    expect(estimateOrder({ ...base, side: OrderSide.buy })).toEqual({
      margin: charged('49508').margin.toNumber(),
      fee: charged('49508').fee.toNumber(),
    });
    expect(estimateOrder({ ...base, side: OrderSide.sell })).toEqual({
      margin: charged('49500').margin.toNumber(),
      fee: charged('49500').fee.toNumber(),
    });
    // 0.3 × 49,500 ÷ 10 yen is about 9.61 USD, not the 1,485 a USD-quoted reading would give.
    expect(estimateOrder({ ...base, side: OrderSide.sell })?.margin).toBe(9.610904);
  });

  it('charges a pending order at its target, whichever side', () => {
    const atTarget = { margin: charged('47000').margin.toNumber(), fee: charged('47000').fee.toNumber() };
    expect(estimateOrder({ ...base, side: OrderSide.buy, target: '47000' })).toEqual(atTarget);
    expect(estimateOrder({ ...base, side: OrderSide.sell, target: '47000' })).toEqual(atTarget);
  });

  it('has nothing to show without the rate (a list cached before the server sent it)', () => {
    expect(estimateOrder({ ...base, pair: { ...jpn225, UsdRate: '' }, side: OrderSide.buy })).toBeNull();
  });
});

describe('lots typed on the ticket', () => {
  const eurusd = { ...jpn225, Pip: 0.01, ForexMinCont: 0.01, ForexMaxCont: 50 };

  it('are refused with the rule they break, never replaced', () => {
    expect(checkLots(60, eurusd)).toEqual({ problem: 'lots_above_max' });
    expect(checkLots(-2, eurusd)).toEqual({ problem: 'lots_below_min' });
    expect(checkLots(0, eurusd)).toEqual({ problem: 'lots_below_min' });
    expect(checkLots(0.001, eurusd)).toEqual({ problem: 'lots_below_min' });
    expect(checkLots(0.015, eurusd)).toEqual({ problem: 'lots_off_step' });
    expect(checkLots(Number.NaN, eurusd)).toEqual({ problem: 'lots_invalid' });
  });

  it('are sent exactly as typed when valid', () => {
    expect(checkLots(0.5, eurusd)).toEqual({ lots: '0.5' });
    expect(checkLots(50, eurusd)).toEqual({ lots: '50' });
    expect(checkLots(0.07, eurusd)).toEqual({ lots: '0.07' });
  });

  it('step to the next valid value with − and +, within the range', () => {
    expect(stepLots(0.5, 1, eurusd)).toBe('0.51');
    expect(stepLots(0.015, 1, eurusd)).toBe('0.02');
    expect(stepLots(0.015, -1, eurusd)).toBe('0.01');
    expect(stepLots(60, -1, eurusd)).toBe('50');
    expect(stepLots(50, 1, eurusd)).toBe('50');
    expect(stepLots(-2, 1, eurusd)).toBe('0.01');
    expect(stepLots(Number.NaN, 1, eurusd)).toBe('0.01');
  });
});

describe('a switched-on take profit or stop loss', () => {
  const level = { pair: jpn225, side: OrderSide.buy } as const;

  it('must be given, and be a price', () => {
    expect(checkLevel({ ...level, level: 'take_profit', text: '' })).toEqual({ problem: 'level_required' });
    expect(checkLevel({ ...level, level: 'take_profit', text: '  ' })).toEqual({ problem: 'level_required' });
    expect(checkLevel({ ...level, level: 'stop_loss', text: 'abc' })).toEqual({ problem: 'level_invalid' });
    expect(checkLevel({ ...level, level: 'stop_loss', text: '0' })).toEqual({ problem: 'level_invalid' });
    expect(checkLevel({ ...level, level: 'stop_loss', text: '-5' })).toEqual({ problem: 'level_invalid' });
  });

  it('is on the right side of the closing price, or of the target when pending', () => {
    // A buy closes at the bid (49,500): take profit above it, stop loss below it.
    expect(checkLevel({ ...level, level: 'take_profit', text: '49600' })).toEqual({ price: '49600' });
    expect(checkLevel({ ...level, level: 'take_profit', text: '49500' })).toEqual({ problem: 'wrong_side', reference: '49500' });
    expect(checkLevel({ ...level, level: 'stop_loss', text: '49501' })).toEqual({ problem: 'wrong_side', reference: '49500' });
    // A sell closes at the ask (49,508).
    expect(checkLevel({ ...level, side: OrderSide.sell, level: 'stop_loss', text: '49508' })).toEqual({
      problem: 'wrong_side',
      reference: '49508',
    });
    expect(checkLevel({ ...level, level: 'stop_loss', text: '46000', target: '47000' })).toEqual({ price: '46000' });
    expect(checkLevel({ ...level, level: 'take_profit', text: '46000', target: '47000' })).toEqual({
      problem: 'wrong_side',
      reference: '47000',
    });
  });

  it('names the way it must be for the side', () => {
    expect(wrongSideKey('take_profit', OrderSide.buy)).toBe('trade.take_profit_above');
    expect(wrongSideKey('take_profit', OrderSide.sell)).toBe('trade.take_profit_below');
    expect(wrongSideKey('stop_loss', OrderSide.buy)).toBe('trade.stop_loss_below');
    expect(wrongSideKey('stop_loss', OrderSide.sell)).toBe('trade.stop_loss_above');
  });
});
