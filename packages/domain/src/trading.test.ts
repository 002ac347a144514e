import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec, dec, roundBalance, roundPrice, roundProfit } from './money.js';
import {
  accountFigures,
  bookProfit,
  chargePrice,
  entryPrice,
  exitPrice,
  fillDirection,
  isStopOut,
  lotError,
  margin,
  marginState,
  orderCharges,
  orderRefusal,
  OrderSide,
  pendingReached,
  pendingReservation,
  profit,
  stopReached,
  stopsError,
  tradeFee,
} from './trading.js';

/** Decimal text with up to `scale` decimals in [0, max), built from integers so no float enters. */
const decimalText = (max: number, scale: number) =>
  fc.integer({ min: 1, max: max * 10 ** scale - 1 }).map((units) =>
    dec(units)
      .dividedBy(10 ** scale)
      .toFixed(),
  );
const side = fc.constantFrom(OrderSide.buy, OrderSide.sell);

describe('margin (docs/api.md)', () => {
  it('is lots × contract size in fixed mode, whatever the price and leverage', () => {
    expect(
      margin({ lots: '0.5', contractSize: '1000', marginMode: 1, price: '1.2345', leverage: 100, usdRate: 7 }).toFixed(),
    ).toBe('500');
  });

  it('is lots × contract × price ÷ leverage otherwise, converted to USD', () => {
    const m = margin({ lots: '0.1', contractSize: '100000', marginMode: 2, price: '1.08345', leverage: 100, usdRate: 1 });
    expect(m.toFixed()).toBe('108.345');
    // USDJPY-like: notional in JPY, converted by the JPY→USD rate.
    const jpy = margin({
      lots: '1',
      contractSize: '100000',
      marginMode: 2,
      price: '150',
      leverage: 50,
      usdRate: dec(1).dividedBy(150),
    });
    expect(roundProfit(jpy).toFixed(6)).toBe('2000.000000');
  });

  it('scales linearly with lots', () => {
    fc.assert(
      fc.property(
        decimalText(100, 2),
        fc.integer({ min: 1, max: 50 }),
        decimalText(5000, 5),
        fc.constantFrom(1, 10, 100, 500),
        fc.constantFrom(1, 2),
        (lots, k, price, leverage, marginMode) => {
          const base = { contractSize: '100000', marginMode, price, leverage, usdRate: '0.91' };
          const one = margin({ ...base, lots });
          const many = margin({ ...base, lots: dec(lots).times(k) });
          expect(many.equals(one.times(k))).toBe(true);
        },
      ),
    );
  });
});

describe('fee', () => {
  it('per lot when trade_fee_type is 1, otherwise a share of the margin', () => {
    expect(tradeFee({ feeType: 1, lots: '2.5', feeRate: '3', margin: '999' }).toFixed()).toBe('7.5');
    expect(tradeFee({ feeType: 2, lots: '2.5', feeRate: '0.001', margin: '1083.45' }).toFixed()).toBe('1.08345');
  });

  it('is never negative and is linear in its driver', () => {
    fc.assert(
      fc.property(
        decimalText(100, 2),
        decimalText(1, 6),
        decimalText(100000, 2),
        fc.constantFrom(1, 2),
        (lots, rate, m, feeType) => {
          const fee = tradeFee({ feeType, lots, feeRate: rate, margin: m });
          expect(fee.isNegative()).toBe(false);
          const doubled = tradeFee({ feeType, lots: dec(lots).times(2), feeRate: rate, margin: dec(m).times(2) });
          expect(doubled.equals(fee.times(2))).toBe(true);
        },
      ),
    );
  });
});

describe('order charges', () => {
  it('are charged at the ask for a buy, the bid for a sell and the target for a pending order', () => {
    const quote = { bid: '43708.2', ask: '43712.7' };
    expect(chargePrice(OrderSide.buy, quote).toFixed()).toBe('43712.7');
    expect(chargePrice(OrderSide.sell, quote).toFixed()).toBe('43708.2');
    expect(chargePrice(OrderSide.sell, quote, '41000').toFixed()).toBe('41000');
    expect(chargePrice(OrderSide.buy, quote, null).toFixed()).toBe('43712.7');
  });

  it('convert a yen-quoted index to USD: JPN225 0.3 lot at 10× (the ticket once showed 1,276.89 / 6.38)', () => {
    const charges = orderCharges({
      lots: '0.3',
      contractSize: '1',
      marginMode: 2,
      price: '43712.7',
      leverage: 10,
      usdRate: dec(1).dividedBy('154.512'),
      feeType: 2,
      feeRate: '0.005',
    });
    expect(charges.margin.toFixed()).toBe('8.487244');
    expect(charges.fee.toFixed()).toBe('0.04');
  });

  it('round the margin to 6 decimals and take the fee from the unrounded margin', () => {
    const base = { lots: '0.1', contractSize: '1', marginMode: 2, price: '9.999999', leverage: 1, usdRate: 1, feeRate: '0.005' };
    const charges = orderCharges({ ...base, feeType: 2 });
    expect(charges.margin.toFixed()).toBe('1');
    // 0.9999999 × 0.005 = 0.0049999995: a fee taken from the rounded margin would be 0.01.
    expect(charges.fee.toFixed()).toBe('0');
    expect(orderCharges({ ...base, feeType: 1 }).fee.toFixed()).toBe('0');
  });

  it('equal the margin and fee functions rounded at the boundary, for any input', () => {
    fc.assert(
      fc.property(
        decimalText(50, 2),
        decimalText(100000, 5),
        fc.constantFrom(1, 10, 100, 500),
        fc.constantFrom(1, 2),
        fc.constantFrom(1, 2),
        decimalText(2, 8),
        (lots, price, leverage, marginMode, feeType, usdRate) => {
          const input = { lots, contractSize: '100', marginMode, price, leverage, usdRate };
          const charges = orderCharges({ ...input, feeType, feeRate: '0.005' });
          const unrounded = margin(input);
          expect(charges.margin.equals(roundProfit(unrounded))).toBe(true);
          expect(charges.fee.equals(roundBalance(tradeFee({ feeType, lots, feeRate: '0.005', margin: unrounded })))).toBe(true);
        },
      ),
    );
  });
});

describe('bookProfit', () => {
  it('equals the sum of the profits of the positions it sums, exactly', () => {
    const position = fc.record({ lots: decimalText(50, 2), entry: decimalText(1000, 5) });
    fc.assert(
      fc.property(side, fc.array(position, { minLength: 1, maxLength: 20 }), decimalText(1000, 5), (s, positions, exit) => {
        let lots = dec(0);
        let lotsTimesEntry = dec(0);
        let sum = dec(0);
        for (const p of positions) {
          lots = lots.plus(p.lots);
          lotsTimesEntry = lotsTimesEntry.plus(dec(p.lots).times(p.entry));
          sum = sum.plus(profit({ side: s, lots: p.lots, contractSize: '100000', entry: p.entry }, exit, '0.0067'));
        }
        const book = bookProfit({ side: s, lots, lotsTimesEntry, contractSize: '100000' }, exit, '0.0067');
        expect(book.equals(sum)).toBe(true);
      }),
    );
  });
});

describe('profit', () => {
  it('buy gains when the price rises, sell loses the same', () => {
    const position = { lots: '0.1', contractSize: '100000', entry: '1.10000' };
    expect(profit({ ...position, side: OrderSide.buy }, '1.10250', 1).toFixed()).toBe('25');
    expect(profit({ ...position, side: OrderSide.sell }, '1.10250', 1).toFixed()).toBe('-25');
  });

  it('a buy and a sell of the same size at the same prices have opposite P&L', () => {
    fc.assert(
      fc.property(
        decimalText(100, 2),
        decimalText(10000, 5),
        decimalText(10000, 5),
        decimalText(10, 6),
        (lots, entry, exit, rate) => {
          const position = { lots, contractSize: '1000', entry };
          const buy = profit({ ...position, side: OrderSide.buy }, exit, rate);
          const sell = profit({ ...position, side: OrderSide.sell }, exit, rate);
          expect(buy.plus(sell).isZero()).toBe(true);
        },
      ),
    );
  });

  it('is zero at the entry price and sums over partial positions (no rounding inside)', () => {
    fc.assert(
      fc.property(
        side,
        decimalText(50, 2),
        decimalText(50, 2),
        decimalText(1000, 5),
        decimalText(1000, 5),
        (s, a, b, entry, exit) => {
          const whole = profit({ side: s, lots: dec(a).plus(b), contractSize: '100000', entry }, exit, '0.0067');
          const parts = profit({ side: s, lots: a, contractSize: '100000', entry }, exit, '0.0067').plus(
            profit({ side: s, lots: b, contractSize: '100000', entry }, exit, '0.0067'),
          );
          expect(whole.equals(parts)).toBe(true);
          expect(profit({ side: s, lots: a, contractSize: '100000', entry }, entry, 1).isZero()).toBe(true);
        },
      ),
    );
  });
});

describe('rounding happens at the boundary, half away from zero', () => {
  it('pins the rounding mode with explicit cases', () => {
    expect(roundBalance('0.005').toFixed(2)).toBe('0.01');
    expect(roundBalance('-0.005').toFixed(2)).toBe('-0.01');
    expect(roundBalance('0.0049999').toFixed(2)).toBe('0.00');
    expect(roundBalance('2.675').toFixed(2)).toBe('2.68'); // a float would give 2.67
    expect(roundProfit('0.0000005').toFixed(6)).toBe('0.000001');
    expect(roundProfit('-1.2345675').toFixed(6)).toBe('-1.234568');
    expect(roundPrice('1.234565', 5).toFixed(5)).toBe('1.23457');
  });

  it('three fees of 0.3333… rounded once differ from three rounded fees: we keep the exact sum', () => {
    const fee = tradeFee({ feeType: 2, lots: 1, feeRate: dec(1).dividedBy(3), margin: 1 });
    expect(roundBalance(fee.times(3)).toFixed(2)).toBe('1.00');
    expect(roundBalance(fee).times(3).toFixed(2)).toBe('0.99');
  });

  it('never uses binary floats: 0.1 + 0.2 is exactly 0.3', () => {
    const m = margin({ lots: '0.1', contractSize: 1, marginMode: 1, price: 1, leverage: 1, usdRate: 1 }).plus(
      margin({ lots: '0.2', contractSize: 1, marginMode: 1, price: 1, leverage: 1, usdRate: 1 }),
    );
    expect(m.equals(new Dec('0.3'))).toBe(true);
  });
});

describe('account figures', () => {
  it('computes equity, free margin, margin level and risk rate', () => {
    const figures = accountFigures({ balance: '1000', floating: '-200', usedMargin: '400', locked: '50' });
    expect(figures.equity.toFixed()).toBe('800');
    expect(figures.freeMargin.toFixed()).toBe('350');
    expect(figures.marginLevel?.toFixed()).toBe('200');
    expect(figures.riskRate?.toFixed()).toBe('50');
  });

  it('has no margin level and zero risk without positions; unbounded risk when equity is gone', () => {
    const idle = accountFigures({ balance: '10', floating: 0, usedMargin: 0, locked: 0 });
    expect(idle.marginLevel).toBeNull();
    expect(idle.riskRate?.toFixed()).toBe('0');
    expect(accountFigures({ balance: '10', floating: '-20', usedMargin: 5, locked: 0 }).riskRate).toBeNull();
  });

  it('stops out at or below the level, not above', () => {
    expect(isStopOut('50', '100', 50)).toBe(true);
    expect(isStopOut('50.01', '100', 50)).toBe(false);
    expect(isStopOut('-5', '100', 50)).toBe(true);
    expect(isStopOut('1', '0', 50)).toBe(false);
  });

  it('is in margin call at or below its level and above the stop-out, in stop-out at or below that', () => {
    const levels = { marginCallLevel: 100, stopOutLevel: 50 };
    expect(marginState(null, levels)).toBe('safe');
    expect(marginState('100.01', levels)).toBe('safe');
    expect(marginState('100', levels)).toBe('margin_call');
    expect(marginState('50.01', levels)).toBe('margin_call');
    expect(marginState('50', levels)).toBe('stop_out');
    expect(marginState('-3', levels)).toBe('stop_out');
  });
});

describe('lot rules', () => {
  const rules = { minLots: '0.01', maxLots: '100', lotStep: '0.01' };
  it('accepts min, steps from min and max; rejects below, off step, above', () => {
    expect(lotError('0.01', rules)).toBeNull();
    expect(lotError('0.37', rules)).toBeNull();
    expect(lotError('100', rules)).toBeNull();
    expect(lotError('0.009', rules)).toBe('lots_below_min');
    expect(lotError('0.015', rules)).toBe('lots_off_step');
    expect(lotError('100.01', rules)).toBe('lots_above_max');
  });

  it('counts steps from the minimum', () => {
    const odd = { minLots: '0.15', maxLots: '10', lotStep: '0.1' };
    expect(lotError('0.25', odd)).toBeNull();
    expect(lotError('0.2', odd)).toBe('lots_off_step');
  });

  it('every stepper value is valid', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), (k) => {
        expect(lotError(dec('0.01').plus(dec('0.01').times(k)), rules)).toBeNull();
      }),
    );
  });
});

describe('TP/SL side rules', () => {
  it('buy: TP above, SL below the reference; sell: the mirror; equal is wrong', () => {
    expect(stopsError(OrderSide.buy, '1.1', { takeProfit: '1.2', stopLoss: '1.0' })).toBeNull();
    expect(stopsError(OrderSide.buy, '1.1', { takeProfit: '1.1' })).toBe('take_profit_wrong_side');
    expect(stopsError(OrderSide.buy, '1.1', { stopLoss: '1.15' })).toBe('stop_loss_wrong_side');
    expect(stopsError(OrderSide.sell, '1.1', { takeProfit: '1.0', stopLoss: '1.2' })).toBeNull();
    expect(stopsError(OrderSide.sell, '1.1', { takeProfit: '1.2' })).toBe('take_profit_wrong_side');
    expect(stopsError(OrderSide.sell, '1.1', { stopLoss: '1.0' })).toBe('stop_loss_wrong_side');
    expect(stopsError(OrderSide.sell, '1.1', {})).toBeNull();
  });

  it('a level accepted at the reference fires only after the price moves to it', () => {
    fc.assert(
      fc.property(side, decimalText(1000, 4), decimalText(1000, 4), (s, reference, level) => {
        const asTp = stopsError(s, reference, { takeProfit: level }) === null;
        if (asTp) expect(stopReached(s, reference, { takeProfit: level })).toBeNull();
        const asSl = stopsError(s, reference, { stopLoss: level }) === null;
        if (asSl) expect(stopReached(s, reference, { stopLoss: level })).toBeNull();
        expect(asTp && asSl).toBe(false);
      }),
    );
  });

  it('fires TP and SL when the closing price reaches them', () => {
    expect(stopReached(OrderSide.buy, '1.2', { takeProfit: '1.2', stopLoss: '1.0' })).toBe('take_profit');
    expect(stopReached(OrderSide.buy, '0.9', { takeProfit: '1.2', stopLoss: '1.0' })).toBe('stop_loss');
    expect(stopReached(OrderSide.sell, '0.99', { takeProfit: '1.0', stopLoss: '1.2' })).toBe('take_profit');
    expect(stopReached(OrderSide.sell, '1.2', { takeProfit: '1.0', stopLoss: '1.2' })).toBe('stop_loss');
    expect(stopReached(OrderSide.sell, '1.1', { takeProfit: '1.0', stopLoss: '1.2' })).toBeNull();
  });
});

describe('prices and pending fills', () => {
  const quote = { bid: '1.1000', ask: '1.1002' };
  it('opens on one side of the spread and closes on the other', () => {
    expect(entryPrice(OrderSide.buy, quote).toFixed()).toBe('1.1002');
    expect(exitPrice(OrderSide.buy, quote).toFixed()).toBe('1.1');
    expect(entryPrice(OrderSide.sell, quote).toFixed()).toBe('1.1');
    expect(exitPrice(OrderSide.sell, quote).toFixed()).toBe('1.1002');
  });

  it('fills when the market reaches the target from the side it was placed on', () => {
    const below = fillDirection('1.09', '1.1002');
    expect(below).toBe('fall');
    expect(pendingReached(below, '1.09', '1.0950')).toBe(false);
    expect(pendingReached(below, '1.09', '1.09')).toBe(true);
    expect(pendingReached(below, '1.09', '1.08')).toBe(true);
    const above = fillDirection('1.2', '1.1002');
    expect(above).toBe('rise');
    expect(pendingReached(above, '1.2', '1.1999')).toBe(false);
    expect(pendingReached(above, '1.2', '1.25')).toBe(true);
  });

  it('a target is never reached by the price it was placed at unless it equals it', () => {
    fc.assert(
      fc.property(decimalText(1000, 4), decimalText(1000, 4), (target, market) => {
        expect(pendingReached(fillDirection(target, market), target, market)).toBe(dec(target).equals(market));
      }),
    );
  });
});

describe('affording an order', () => {
  const charges = { margin: dec('100.000001'), fee: dec('0.5') };

  it('needs free margin for margin + fee, to the last decimal', () => {
    expect(orderRefusal({ freeMargin: '100.500001', balance: '1000', charges, pending: false })).toBeNull();
    expect(orderRefusal({ freeMargin: '100.5', balance: '1000', charges, pending: false })).toBe('insufficient_margin');
    expect(orderRefusal({ freeMargin: '100.5', balance: '1000', charges, pending: true })).toBe('insufficient_margin');
  });

  it('needs cash for the fee of an order that opens now, not of one that waits', () => {
    expect(orderRefusal({ freeMargin: '500', balance: '0.49', charges, pending: false })).toBe('insufficient_balance');
    expect(orderRefusal({ freeMargin: '500', balance: '0.5', charges, pending: false })).toBeNull();
    expect(orderRefusal({ freeMargin: '500', balance: '0.49', charges, pending: true })).toBeNull();
  });

  it('says margin first when both are short', () => {
    expect(orderRefusal({ freeMargin: '-1', balance: '0', charges, pending: false })).toBe('insufficient_margin');
  });

  it('reserves margin + fee rounded half up to cents for a pending order', () => {
    expect(pendingReservation(charges).toFixed()).toBe('100.5');
    expect(pendingReservation({ margin: dec('8.487244'), fee: dec('0.04') }).toFixed()).toBe('8.53');
    expect(pendingReservation({ margin: dec('1.004999'), fee: dec('0') }).toFixed()).toBe('1');
    expect(pendingReservation({ margin: dec('1.005'), fee: dec('0') }).toFixed()).toBe('1.01');
  });
});
