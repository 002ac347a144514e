import { describe, expect, it } from 'vitest';
import type { AccountFigures, ForexTradePush } from '../../api/types';
import { walletFigures } from './walletFigures';

const figures: AccountFigures = {
  balance: 1000,
  lock_balance: 100,
  net_value: 1020,
  floating_profit: 20,
  current_margin: 300,
  available_prepayment: 620,
  withdrawable: 620,
  prepayment_ratio: 340,
  risk_rate: 29.41,
  stop_out_level: 50,
  margin_call_level: 100,
};

const push = (floating: number, usedMargin: number): ForexTradePush => ({
  ProfitsTotal: floating,
  HazardRate: null,
  CautionMoneyAll: usedMargin,
  TransOrder: [],
});

describe('wallet figures', () => {
  it("are the server's own without a push", () => {
    expect(walletFigures(figures, null)).toEqual({
      balance: 1000,
      locked: 100,
      withdrawable: 620,
      equity: 1020,
      usedMargin: 300,
      freeMargin: 620,
    });
  });

  it('follow the pushed floating P&L and used margin; cash and reservations stay', () => {
    // Equity 1000 − 150.255 = 849.745; free margin 849.745 − 300 − 100 = 449.745.
    expect(walletFigures(figures, push(-150.255, 300))).toEqual({
      balance: 1000,
      locked: 100,
      withdrawable: 449.74,
      equity: 849.75,
      usedMargin: 300,
      freeMargin: 449.75,
    });
  });

  it('let no more leave than the unreserved cash when the positions gain', () => {
    const result = walletFigures(figures, push(500, 200));
    expect(result.freeMargin).toBe(1200);
    expect(result.withdrawable).toBe(900);
  });

  it('let nothing leave once the losses eat the free margin', () => {
    const result = walletFigures(figures, push(-700, 300));
    expect(result.freeMargin).toBe(-100);
    expect(result.withdrawable).toBe(0);
  });
});
