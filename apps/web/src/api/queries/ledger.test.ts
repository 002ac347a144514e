import { describe, expect, it } from 'vitest';
import type { LedgerEntry, LedgerPage } from '../types';
import { ledgerRows, nextLedgerPage } from './ledger';

const entry = (id: number): LedgerEntry => ({
  Id: id,
  Value: -1,
  BalanceAfter: 100,
  Type: 'trade_fee',
  Memo: 'ledger_trade_fee',
  MemoTran: 'Trading fee',
  RefType: 'order',
  RefId: id,
  CreatedAt: '2026-11-23T10:00:00.000Z',
  CreatedAtTran: '2026-11-23 10:00:00',
});

const page = (number: number, ids: number[], total: number): LedgerPage => ({
  data: ids.map(entry),
  total,
  page: number,
  page_size: 3,
});

describe('ledger paging', () => {
  it('asks for the next page while rows of the total are left', () => {
    expect(nextLedgerPage(page(1, [9, 8, 7], 7))).toBe(2);
    expect(nextLedgerPage(page(2, [6, 5, 4], 7))).toBe(3);
  });

  it('stops at the page that holds the last row, and on an empty ledger', () => {
    expect(nextLedgerPage(page(3, [3], 7))).toBeUndefined();
    expect(nextLedgerPage(page(2, [3, 2, 1], 6))).toBeUndefined();
    expect(nextLedgerPage(page(1, [], 0))).toBeUndefined();
  });

  it('shows a row once when a new entry pushed it onto the next page too', () => {
    const pages = { pages: [page(1, [9, 8, 7], 7), page(2, [7, 6, 5], 8)] };
    expect(ledgerRows(pages).map((row) => row.Id)).toEqual([9, 8, 7, 6, 5]);
  });
});
