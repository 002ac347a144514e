import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '../money.js';
import { lotError, OrderSide } from '../trading.js';
import {
  copyAllowed,
  copyLots,
  copyPlan,
  copyStopLossLevel,
  copyStopLossReached,
  feeSettlement,
  feeSettlementDue,
  followAmountError,
  mirroredStops,
  nextFeeSettlement,
  providerFeeError,
  providerListable,
} from './rules.js';

const lotsOf = (sizing: ReturnType<typeof copyLots>) => (sizing.kind === 'copy' ? sizing.lots.toFixed() : sizing.reason);
const FX = { minLots: '0.01', maxLots: '100', lotStep: '0.01' };

describe('copy sizing', () => {
  it('scales the provider lots by the copy amount over the provider equity, rounded down to the lot step', () => {
    // 1 lot × 1,234 ÷ 10,000 = 0.1234 → 0.01 + ⌊(0.1234 − 0.01) ÷ 0.01⌋ × 0.01 = 0.01 + 11 × 0.01 = 0.12.
    expect(lotsOf(copyLots({ providerLots: '1', copyAmount: '1234', providerEquity: '10000', lots: FX }))).toBe('0.12');
    // 2.5 lots × 500 ÷ 2,000 = 0.625 → 0.62 (never up to 0.63: a copy is never bigger than its share).
    expect(lotsOf(copyLots({ providerLots: '2.5', copyAmount: '500', providerEquity: '2000', lots: FX }))).toBe('0.62');
    // Exactly the minimum: 0.1 × 1,000 ÷ 10,000 = 0.01.
    expect(lotsOf(copyLots({ providerLots: '0.1', copyAmount: '1000', providerEquity: '10000', lots: FX }))).toBe('0.01');
  });

  it('skips as too_small below the minimum lot, and for a provider without positive equity', () => {
    // 0.05 × 100 ÷ 10,000 = 0.0005 < 0.01.
    expect(lotsOf(copyLots({ providerLots: '0.05', copyAmount: '100', providerEquity: '10000', lots: FX }))).toBe('too_small');
    // 0.0999 × 1,000 ÷ 10,000 = 0.00999 < 0.01.
    expect(lotsOf(copyLots({ providerLots: '0.0999', copyAmount: '1000', providerEquity: '10000', lots: FX }))).toBe('too_small');
    expect(lotsOf(copyLots({ providerLots: '1', copyAmount: '1000', providerEquity: '0', lots: FX }))).toBe('too_small');
  });

  it('counts steps from the minimum and caps at the largest valid size under the maximum', () => {
    const odd = { minLots: '0.05', maxLots: '20', lotStep: '0.1' };
    // 0.32 → 0.05 + ⌊0.27 ÷ 0.1⌋ × 0.1 = 0.05 + 0.2 = 0.25.
    expect(lotsOf(copyLots({ providerLots: '0.32', copyAmount: '1', providerEquity: '1', lots: odd }))).toBe('0.25');
    // 50 capped at 20, off the grid: 0.05 + ⌊19.95 ÷ 0.1⌋ × 0.1 = 0.05 + 19.9 = 19.95.
    expect(lotsOf(copyLots({ providerLots: '50', copyAmount: '1', providerEquity: '1', lots: odd }))).toBe('19.95');
  });

  it('always answers a size the order form would accept, never above the share', () => {
    const units = (max: number) => fc.integer({ min: 1, max }).map((n) => dec(n).dividedBy(100));
    fc.assert(
      fc.property(units(10_000), units(10_000_000), units(10_000_000), (providerLots, copyAmount, providerEquity) => {
        const rules = { minLots: '0.05', maxLots: '50', lotStep: '0.02' };
        const sizing = copyLots({ providerLots, copyAmount, providerEquity, lots: rules });
        const share = providerLots.times(copyAmount).dividedBy(providerEquity);
        if (sizing.kind === 'skip') {
          expect(share.lt('0.05')).toBe(true);
          return;
        }
        expect(lotError(sizing.lots, rules)).toBeNull();
        expect(sizing.lots.lte(share)).toBe(true);
        // Rounded down by less than one step, unless capped.
        if (share.lte(50)) expect(share.minus(sizing.lots).lt('0.02')).toBe(true);
      }),
    );
  });
});

describe('copy plan', () => {
  // EURUSD-like: margin = lots × 100,000 × 1.1 ÷ 100; fee 7 USD a lot.
  const charge = { contractSize: '100000', marginMode: 2, price: '1.1', leverage: 100, usdRate: 1, feeType: 1, feeRate: '7' };
  const base = {
    providerLots: '1',
    copyAmount: '1234',
    providerEquity: '10000',
    lots: FX,
    tradable: true,
    charge,
    balance: '1000',
  };

  it('opens the sized lots with their charges when the follower can carry them', () => {
    // 0.12 lots: margin 0.12 × 100,000 × 1.1 ÷ 100 = 132; fee 0.12 × 7 = 0.84; free margin needs 132.84.
    const plan = copyPlan({ ...base, freeMargin: '132.84' });
    expect(plan.kind === 'copy' && [plan.lots.toFixed(), plan.charges.margin.toFixed(), plan.charges.fee.toFixed()]).toEqual([
      '0.12',
      '132',
      '0.84',
    ]);
  });

  it('skips with the reason: closed first, then too_small, then no_margin', () => {
    expect(copyPlan({ ...base, freeMargin: '132.83' })).toEqual({ kind: 'skip', reason: 'no_margin' });
    // The fee comes from cash: a balance of 0.83 cannot pay 0.84.
    expect(copyPlan({ ...base, freeMargin: '5000', balance: '0.83' })).toEqual({ kind: 'skip', reason: 'no_margin' });
    expect(copyPlan({ ...base, providerLots: '0.05', freeMargin: '0' })).toEqual({ kind: 'skip', reason: 'too_small' });
    expect(copyPlan({ ...base, providerLots: '0.05', freeMargin: '0', tradable: false })).toEqual({
      kind: 'skip',
      reason: 'closed',
    });
  });
});

describe('mirrored take-profit and stop-loss', () => {
  it('copies the provider prices and says when the follower fill is already past one', () => {
    const stops = { takeProfit: '1.1050', stopLoss: '1.0950' };
    const copied = mirroredStops({ side: OrderSide.buy, exit: '1.1000', ...stops });
    expect([copied.takeProfit?.toFixed(), copied.stopLoss?.toFixed(), copied.reached]).toEqual(['1.105', '1.095', null]);
    // The follower's bid at its fill is already at the provider's stop-loss: it closes by it at once.
    expect(mirroredStops({ side: OrderSide.buy, exit: '1.0950', ...stops }).reached).toBe('stop_loss');
    expect(mirroredStops({ side: OrderSide.sell, exit: '1.1049', takeProfit: '1.1050', stopLoss: null })).toMatchObject({
      reached: 'take_profit',
      stopLoss: null,
    });
  });
});

describe('copy stop-loss', () => {
  it('stops the copy when realised + floating P&L reaches the set percent of its amount', () => {
    // 1,000 × 30 % = 300: the level is −300.
    expect(copyStopLossLevel('1000', 30).toFixed()).toBe('-300');
    // −120 − 179.99 = −299.99: not yet.
    expect(copyStopLossReached({ amount: '1000', stopLossPct: 30, realised: '-120', floating: '-179.99' })).toBe(false);
    // −120 − 180 = −300: reached.
    expect(copyStopLossReached({ amount: '1000', stopLossPct: 30, realised: '-120', floating: '-180' })).toBe(true);
    // A realised gain offsets a floating loss: 50 − 320 = −270 > −300.
    expect(copyStopLossReached({ amount: '1000', stopLossPct: 30, realised: '50', floating: '-320' })).toBe(false);
    // 1,234.56 × 90 % = 1,111.104.
    expect(copyStopLossLevel('1234.56', 90).toFixed()).toBe('-1111.104');
  });
});

describe('performance fee', () => {
  it('charges the fee on net profit above the high-water mark only', () => {
    // First month: (500 − 0) × 20 % = 100; the mark rises to 500.
    const first = feeSettlement({ netProfit: '500', highWaterMark: '0', feePct: 20, balance: '5000' });
    expect([first.fee.toFixed(), first.highWaterMark.toFixed()]).toEqual(['100', '500']);
    // Second month, 100 lost: 400 ≤ 500, nothing; the mark stays.
    const second = feeSettlement({ netProfit: '400', highWaterMark: '500', feePct: 20, balance: '5000' });
    expect([second.fee.toFixed(), second.highWaterMark.toFixed()]).toEqual(['0', '500']);
    // Third month at 650: only (650 − 500) × 20 % = 30.
    const third = feeSettlement({ netProfit: '650', highWaterMark: '500', feePct: 20, balance: '5000' });
    expect([third.fee.toFixed(), third.highWaterMark.toFixed()]).toEqual(['30', '650']);
  });

  it('rounds down to the cent and never takes the balance below zero', () => {
    // 100.07 × 25 % = 25.0175 → 25.01.
    expect(feeSettlement({ netProfit: '100.07', highWaterMark: '0', feePct: 25, balance: '1000' }).fee.toFixed()).toBe('25.01');
    // (1,000 − 650) × 20 % = 70, but the balance is 45.50: 45.50, and the mark still rises to 1,000.
    const short = feeSettlement({ netProfit: '1000', highWaterMark: '650', feePct: 20, balance: '45.50' });
    expect([short.fee.toFixed(), short.highWaterMark.toFixed()]).toEqual(['45.5', '1000']);
    expect(feeSettlement({ netProfit: '1000', highWaterMark: '0', feePct: 20, balance: '-3' }).fee.toFixed()).toBe('0');
    // A provider charging nothing: no fee, the mark still follows the profit.
    const free = feeSettlement({ netProfit: '80', highWaterMark: '0', feePct: 0, balance: '100' });
    expect([free.fee.toFixed(), free.highWaterMark.toFixed()]).toEqual(['0', '80']);
  });

  it('settles at 00:00 UTC on the 1st of each month, a missed 1st still due', () => {
    expect(nextFeeSettlement(new Date('2026-11-27T17:00:00Z')).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(nextFeeSettlement(new Date('2026-12-15T00:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(nextFeeSettlement(new Date('2026-12-01T00:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    const settled = new Date('2026-11-01T00:00:00Z');
    expect(feeSettlementDue(settled, new Date('2026-11-30T23:59:59.999Z'))).toBe(false);
    expect(feeSettlementDue(settled, new Date('2026-12-01T00:00:00Z'))).toBe(true);
    expect(feeSettlementDue(settled, new Date('2027-01-05T08:00:00Z'))).toBe(true);
  });
});

describe('follow and provider checks', () => {
  it('takes an amount between the minimum and the free margin', () => {
    expect(followAmountError({ amount: '49.99', minAmount: '50', freeMargin: '1000' })).toBe('copy_amount_below_min');
    expect(followAmountError({ amount: '50', minAmount: '50', freeMargin: '1000' })).toBeNull();
    expect(followAmountError({ amount: '1000', minAmount: '50', freeMargin: '1000' })).toBeNull();
    expect(followAmountError({ amount: '1000.01', minAmount: '50', freeMargin: '1000' })).toBe('copy_amount_above_free_margin');
  });

  it('lets demo followers copy anyone and real followers only real providers', () => {
    expect(copyAllowed({ followerDemo: true, providerDemo: true })).toBe(true);
    expect(copyAllowed({ followerDemo: true, providerDemo: false })).toBe(true);
    expect(copyAllowed({ followerDemo: false, providerDemo: false })).toBe(true);
    expect(copyAllowed({ followerDemo: false, providerDemo: true })).toBe(false);
  });

  it('caps the fee at the maximum', () => {
    expect(providerFeeError(30, 30)).toBeNull();
    expect(providerFeeError(31, 30)).toBe('copy_fee_above_max');
  });

  it('lists a provider after the minimum days since the first close and the minimum closed positions', () => {
    const firstClosedAt = new Date('2026-11-01T10:00:00Z');
    const rules = { minDays: 14, minTrades: 20 };
    expect(providerListable({ ...rules, firstClosedAt, closedCount: 20, now: new Date('2026-11-15T10:00:00Z') })).toBe(true);
    expect(providerListable({ ...rules, firstClosedAt, closedCount: 20, now: new Date('2026-11-15T09:59:59Z') })).toBe(false);
    expect(providerListable({ ...rules, firstClosedAt, closedCount: 19, now: new Date('2026-12-15T10:00:00Z') })).toBe(false);
    expect(providerListable({ ...rules, firstClosedAt: null, closedCount: 0, now: new Date('2026-12-15T10:00:00Z') })).toBe(
      false,
    );
  });
});
