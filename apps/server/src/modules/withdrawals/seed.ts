import { CashierType, FIXED_FEE_TYPE } from '@pipwise/domain';
import { count, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { withdrawCurrencies } from '../../db/schema.js';

type CurrencySeed = typeof withdrawCurrencies.$inferInsert;

const RATE_FEE_TYPE = 2;

/**
 * Example withdraw currencies for a fresh installation. Amounts (min, max, fixed fees) are USD, the
 * wallet's currency; `usd_price` is how many units of the currency one USD buys, used only where the
 * market has no pair of the code (USDT, USDC): EUR follows EURUSD and USD is 1.
 */
export const EXAMPLE_WITHDRAW_CURRENCIES: CurrencySeed[] = [
  {
    type: CashierType.coin,
    code: 'USDT',
    protocol: 'TRC20',
    feeType: FIXED_FEE_TYPE,
    drawRate: '1',
    usdPrice: '1',
    minAmount: '10',
    maxAmount: '50000',
    sort: 1,
  },
  {
    type: CashierType.coin,
    code: 'USDT',
    protocol: 'ERC20',
    feeType: FIXED_FEE_TYPE,
    drawRate: '5',
    usdPrice: '1',
    minAmount: '20',
    maxAmount: '50000',
    sort: 2,
  },
  {
    type: CashierType.coin,
    code: 'USDC',
    protocol: 'ERC20',
    feeType: RATE_FEE_TYPE,
    drawRate: '0.005',
    usdPrice: '1',
    minAmount: '50',
    maxAmount: '100000',
    sort: 3,
  },
  {
    type: CashierType.bank,
    code: 'USD',
    protocol: '',
    feeType: RATE_FEE_TYPE,
    drawRate: '0.01',
    usdPrice: '1',
    minAmount: '100',
    maxAmount: '200000',
    sort: 4,
  },
  {
    type: CashierType.bank,
    code: 'EUR',
    protocol: '',
    feeType: RATE_FEE_TYPE,
    drawRate: '0.01',
    usdPrice: '0.92',
    minAmount: '100',
    maxAmount: '200000',
    sort: 5,
  },
];

/**
 * Seeds the examples into an empty table only: once currencies exist they are the back office's, and a
 * start-up must not bring back or rewrite one. The advisory lock makes check and insert one step when
 * several processes start at once.
 */
export async function seedWithdrawCurrencies(db: Db, now: Date) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('seed:withdraw_currencies'))`);
    const [existing] = await tx.select({ n: count() }).from(withdrawCurrencies);
    if (Number(existing?.n ?? 0) > 0) return;
    // Operator rates count from the first start, on the server's clock.
    await tx.insert(withdrawCurrencies).values(EXAMPLE_WITHDRAW_CURRENCIES.map((row) => ({ ...row, usdPriceUpdatedAt: now })));
  });
}
