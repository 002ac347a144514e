import { equity, freeMargin, roundBalance, withdrawableAmount } from '@pipwise/domain';
import type { AccountFigures, ForexTradePush } from '../../api/types';

export interface WalletFigures {
  balance: number;
  locked: number;
  /** What may leave: min(balance − locked, free margin), never below 0 (docs/product.md, "Account figures"). */
  withdrawable: number;
  equity: number;
  usedMargin: number;
  freeMargin: number;
}

/**
 * The wallet's figures: the server's, with the moving parts (floating P&L, used margin) from the latest
 * FOREX_TRADE push when there is one, and what depends on them worked out again with the domain's own
 * rules, so the screen says what the server would say at that price. Cash and reservations change only
 * on events that refetch the server's figures.
 */
export function walletFigures(figures: AccountFigures, push: ForexTradePush | null | undefined): WalletFigures {
  const fromServer = {
    balance: figures.balance,
    locked: figures.lock_balance,
    withdrawable: figures.withdrawable,
    equity: figures.net_value,
    usedMargin: figures.current_margin,
    freeMargin: figures.available_prepayment,
  };
  if (!push) return fromServer;
  const account = {
    balance: figures.balance,
    floating: push.ProfitsTotal,
    usedMargin: push.CautionMoneyAll,
    locked: figures.lock_balance,
  };
  const free = freeMargin(account);
  return {
    ...fromServer,
    withdrawable: withdrawableAmount(account.balance, account.locked, free).toNumber(),
    equity: roundBalance(equity(account.balance, account.floating)).toNumber(),
    usedMargin: push.CautionMoneyAll,
    freeMargin: roundBalance(free).toNumber(),
  };
}
