import { CashierType } from '@pipwise/domain';
import { count, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { depositChannels } from '../../db/schema.js';

type ChannelSeed = typeof depositChannels.$inferInsert;

/**
 * Example channels for a fresh installation, so the deposit screens work before the back office has
 * set real ones. Amounts are USD (the wallet's currency), so the examples take only USD and the coins
 * pegged to it; a channel in another currency would need a rate the deposit does not carry.
 */
export const EXAMPLE_CHANNELS: ChannelSeed[] = [
  {
    type: CashierType.coin,
    currencyCode: 'USDT',
    protocolCode: 'TRC20',
    address: 'TGK7iKdGVWKNoRCM9fogBuhGfE1hP62ZJr',
    minAmount: '10',
    maxAmount: '100000',
    sort: 1,
  },
  {
    type: CashierType.coin,
    currencyCode: 'USDT',
    protocolCode: 'ERC20',
    address: '0x3f5CE5FBFe3E9af3971dD833D26bA9b5C936f0bE',
    minAmount: '20',
    maxAmount: '100000',
    sort: 2,
  },
  {
    type: CashierType.coin,
    currencyCode: 'USDC',
    protocolCode: 'ERC20',
    address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
    minAmount: '20',
    maxAmount: '250000',
    sort: 3,
  },
  {
    type: CashierType.bank,
    currencyCode: 'USD',
    bankName: 'Citibank N.A.',
    bankAddress: '388 Greenwich Street, New York, NY 10013, United States',
    bankSwift: 'CITIUS33',
    payeeName: 'Pipwise Markets Ltd',
    payeeAccount: '70581124',
    bankRemark: '',
    minAmount: '100',
    maxAmount: '500000',
    sort: 1,
  },
  {
    type: CashierType.bank,
    currencyCode: 'USD',
    bankName: 'Deutsche Bank AG',
    bankAddress: 'Taunusanlage 12, 60325 Frankfurt am Main, Germany',
    bankSwift: 'DEUTDEFF',
    payeeName: 'Pipwise Markets Ltd',
    payeeAccount: 'DE89370400440532013000',
    bankRemark: '',
    minAmount: '100',
    maxAmount: '500000',
    sort: 2,
  },
];

/**
 * Seeds the example channels into an empty table only: once channels exist they belong to the back
 * office, and a start-up must never bring back one an operator removed or rewrite one they edited.
 * Concurrent first starts (several processes) may both see the table empty; the advisory lock makes
 * the check and the insert one step.
 */
export async function seedDepositChannels(db: Db) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('seed:deposit_channels'))`);
    const [existing] = await tx.select({ n: count() }).from(depositChannels);
    if (Number(existing?.n ?? 0) > 0) return;
    await tx.insert(depositChannels).values(EXAMPLE_CHANNELS);
  });
}
