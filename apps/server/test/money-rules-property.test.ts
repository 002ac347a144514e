import {
  ApiPath,
  chargePrice,
  Dec,
  dec,
  entryPrice,
  exitPrice,
  freeMargin,
  orderCharges,
  orderRefusal,
  OrderSide,
  pendingReservation,
  profit,
  withdrawableAmount,
  withdrawalProblem,
  withdrawalQuote,
  type OrderCharges,
  type OrderSideValue,
  type OrderView,
  type TradePairView,
  type WithdrawalProblem,
  type WithdrawCurrencyView,
} from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutMethods, withdrawals, withdrawCurrencies } from '../src/db/schema.js';
import { translate } from '../src/i18n/catalog.js';
import { INSTRUMENT_SEEDS } from '../src/modules/market/catalog.js';
import { expectLedgerInvariants } from './factories.js';
import { ADDRESSES, startWithdrawalServer, walletOf, type WithdrawalServer } from './withdrawals-helpers.js';

/**
 * docs/architecture.md, "Trading model" and "Cashier": the money rules are the domain's functions, called
 * whole by the server and the apps. The same random orders and withdrawals go to the domain (predicting
 * from what the app is shown: the trade list's quote and USD rate, the withdraw currency's terms) and to
 * the real server path over HTTP (placement, the risk engine's fill, the withdrawal request); every
 * figure the server answers and stores — margin, fee, reservation, balance, refusal, withdrawal fee and
 * received amount — must be the predicted one to the cent (margins to their 6 decimals).
 *
 * Reproducible: MONEY_RULES_SEED=<n> replays a run (fast-check prints the seed of a failure);
 * MONEY_RULES_RUNS=<n> runs more cases. PGlite only: the rules are the server's arithmetic, not the
 * database's, and the suites of each path already run on PostgreSQL too.
 */
const SEED = Number(process.env.MONEY_RULES_SEED ?? 20261118);
const RUNS = Number(process.env.MONEY_RULES_RUNS ?? 40);
/** A failure is reported with its seed and case at once: shrinking would replay many HTTP cases. */
const settings = { seed: SEED, numRuns: RUNS, endOnFailure: true } as const;

const BALANCE_DECIMALS = 2;
const ceilCents = (value: Dec) => value.toDecimalPlaces(BALANCE_DECIMALS, Dec.ROUND_UP);
const cents = (value: Dec) => value.toFixed(BALANCE_DECIMALS);

/** The stored figures of an order, as NUMERIC text, and what its owner's wallet holds. */
interface OrderOutcome {
  code: number;
  msg: string;
  margin?: string;
  fee?: string;
  reserved?: string;
  status?: number;
  closeReason?: string | null;
  balance: string;
  lock: string;
}

describe('money rules: the domain predicts what the server charges (property)', () => {
  let server: WithdrawalServer;
  let feeType = 2;

  beforeAll(async () => {
    server = await startWithdrawalServer('pglite');
    // Every instrument quoted at its seed price, so every conversion into USD has its quote.
    for (const seed of INSTRUMENT_SEEDS) server.feed.tick(seed.code, seed.basePrice);
    await server.engine.settled();
  });
  afterAll(async () => {
    await server.engine.settled();
    await expectLedgerInvariants(server.database.db);
    await server.close();
  });

  /** The trade pair as the app is shown it: quote, rules and the USD rate orders are charged at. */
  async function pairOf(code: string): Promise<TradePairView> {
    const list = await server.call<TradePairView[]>('GET', `${ApiPath.tradeList}?searchCurrency=${code}`);
    const pair = list.data.find((entry) => entry.Code === code);
    if (!pair) throw new Error(`${code} is not listed`);
    return pair;
  }

  const quoteOf = (pair: TradePairView) => ({ bid: pair.ForexQuotations.Bid, ask: pair.ForexQuotations.Ask });

  /** The order ticket's prediction: `orderCharges` from the pair's figures, at the price the order is charged at. */
  const predictCharges = (
    pair: TradePairView,
    order: { side: OrderSideValue; lots: string; leverage: number; target?: string; price?: Dec },
  ) =>
    orderCharges({
      lots: order.lots,
      contractSize: pair.ForexContNum,
      marginMode: pair.MarginMode,
      price: order.price ?? chargePrice(order.side, quoteOf(pair), order.target),
      leverage: order.leverage,
      usdRate: pair.UsdRate,
      feeType,
      feeRate: pair.ForexFeeRate,
    });

  async function outcomeOf(userId: number, answer: { code: number; msg: string; data: unknown }): Promise<OrderOutcome> {
    const wallet = await walletOf(server, userId);
    const base = { code: answer.code, msg: answer.msg, balance: cents(dec(wallet.balance)), lock: cents(dec(wallet.lock)) };
    if (answer.code !== 1) return base;
    return { ...base, ...(await storedOrder((answer.data as OrderView).Id)) };
  }

  async function storedOrder(id: number) {
    const order = await server.order(id);
    return {
      margin: dec(order.margin).toFixed(6),
      fee: cents(dec(order.fee)),
      reserved: cents(dec(order.reserved)),
      status: order.status,
      closeReason: order.closeReason,
    };
  }

  const refused = (key: string) => ({ code: 1002, msg: translate('en', key) });

  /** What the server should answer and store for an order, by the domain's rules. */
  function expectedOrder(
    charges: OrderCharges,
    account: { balance: Dec; free: Dec },
    pending: boolean,
  ): { refusal: string | null; outcome: Omit<OrderOutcome, 'msg' | 'code'> & { code: number; msg: string } } {
    const refusal = orderRefusal({ freeMargin: account.free, balance: account.balance, charges, pending });
    if (refusal) return { refusal, outcome: { ...refused(refusal), balance: cents(account.balance), lock: '0.00' } };
    const reserved = pending ? pendingReservation(charges) : dec(0);
    return {
      refusal: null,
      outcome: {
        code: 1,
        msg: translate('en', pending ? 'order_placed_pending' : 'order_opened'),
        margin: charges.margin.toFixed(6),
        fee: cents(charges.fee),
        reserved: cents(reserved),
        status: pending ? 0 : 1,
        closeReason: null,
        balance: cents(pending ? account.balance : account.balance.minus(charges.fee)),
        lock: cents(reserved),
      },
    };
  }

  it('orders: margin, fee, reservation, refusals and fills', async () => {
    const codes = INSTRUMENT_SEEDS.map((seed) => seed.code).filter((code) => server.market.getInstrumentByCode(code)?.enabled);
    const orderCase = fc.record({
      instrument: fc.constantFrom(...codes),
      /** The instrument's bid and its USD conversion pair's, in basis points from the seed price. */
      move: fc.integer({ min: -300, max: 300 }),
      conversionMove: fc.integer({ min: -300, max: 300 }),
      feeType: fc.constantFrom(1, 2),
      /** Lots = min + steps × step, within max. */
      steps: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 5000 })),
      leverage: fc.nat(),
      side: fc.constantFrom(OrderSide.buy, OrderSide.sell),
      pending: fc.boolean(),
      /** A position of the same instrument held first: used margin and floating P&L count against the order. */
      prior: fc.constantFrom(false, false, true),
      /** A pending order is then driven to its target, to fill or to be retired as margin_short. */
      fill: fc.constantFrom(true, true, true, false),
      fillSlip: fc.integer({ min: 0, max: 80 }),
      /** The balance: exactly enough, a cent short, or a share of what is needed (percent). */
      funding: fc.oneof(fc.constant('exact'), fc.constant('short'), fc.integer({ min: 1, max: 300 })),
      /** How far from the market a pending target sits, in basis points (buy below, sell above). */
      distance: fc.integer({ min: 200, max: 1500 }),
    });

    await fc.assert(
      fc.asyncProperty(orderCase, async (c) => {
        const seed = INSTRUMENT_SEEDS.find((entry) => entry.code === c.instrument)!;
        const instrument = server.market.getInstrumentByCode(c.instrument)!;
        if (c.feeType !== feeType) {
          await server.ctx.settings.set({ trade_fee_type: String(c.feeType) });
          feeType = c.feeType;
        }
        const moved = (basePrice: string, bps: number, precision: number) =>
          dec(basePrice)
            .times(dec(10_000 + bps).div(10_000))
            .toDecimalPlaces(precision)
            .toFixed(precision);
        const conversion = INSTRUMENT_SEEDS.find(
          (entry) => entry.code === `${seed.quote}USD` || entry.code === `USD${seed.quote}`,
        );
        if (conversion && conversion.code !== seed.code) {
          await server.tick(conversion.code, moved(conversion.basePrice, c.conversionMove, conversion.precision));
        }
        await server.tick(seed.code, moved(seed.basePrice, c.move, seed.precision));
        let pair = await pairOf(seed.code);

        const lotSteps = dec(instrument.maxLots).minus(instrument.minLots).div(instrument.lotStep).floor();
        const lots = dec(instrument.minLots)
          .plus(Dec.min(dec(c.steps), lotSteps).times(instrument.lotStep))
          .toFixed();
        const leverage = instrument.leverages[c.leverage % instrument.leverages.length]!;
        const side = c.side;
        const bid = dec(pair.ForexQuotations.Bid);
        const target = c.pending
          ? bid
              .times(dec(10_000 + (side === OrderSide.buy ? -c.distance : c.distance)).div(10_000))
              .toDecimalPlaces(pair.PricePrecision)
              .toFixed()
          : undefined;
        const order = { side, lots, leverage, target };
        const charges = predictCharges(pair, order);

        // The position held first: the smallest lot at the same leverage, bought or sold as the order is.
        const prior = c.prior ? predictCharges(pair, { side, lots: instrument.minLots.toFixed(), leverage }) : null;
        const priorFloating = prior
          ? profit(
              { side, lots: instrument.minLots, contractSize: pair.ForexContNum, entry: entryPrice(side, quoteOf(pair)) },
              exitPrice(side, quoteOf(pair)),
              pair.UsdRate,
            )
          : dec(0);
        const needed = charges.margin.plus(charges.fee).plus(prior ? prior.margin.plus(prior.fee).minus(priorFloating) : 0);
        const balance =
          c.funding === 'exact'
            ? ceilCents(needed)
            : c.funding === 'short'
              ? Dec.max(dec(0), ceilCents(needed).minus('0.01'))
              : ceilCents(needed.times(c.funding).div(100));
        const trader = await server.trader({ balance: balance.toFixed(2) });

        let account = { balance, free: balance };
        if (prior) {
          const answer = await server.submit(trader, {
            type: side,
            cont: instrument.minLots.toFixed(),
            forex_id: pair.Id,
            status: 1,
            multiple: leverage,
          });
          const expected = expectedOrder(prior, account, false);
          expect(await outcomeOf(trader.userId, answer), 'the position held first').toEqual(expected.outcome);
          if (!expected.refusal) {
            const after = balance.minus(prior.fee);
            account = {
              balance: after,
              free: freeMargin({ balance: after, floating: priorFloating, usedMargin: prior.margin, locked: 0 }),
            };
          }
        }

        const body = {
          type: side,
          cont: lots,
          forex_id: pair.Id,
          status: c.pending ? 0 : 1,
          multiple: leverage,
          ...(target ? { target_price: target } : {}),
        };
        const answer = await server.submit(trader, body);
        const expected = expectedOrder(charges, account, c.pending);
        const placed = await outcomeOf(trader.userId, answer);
        expect(placed, JSON.stringify({ case: c, body })).toEqual(expected.outcome);
        if (answer.code === 1) {
          const view = answer.data as OrderView;
          expect([view.CautionMoney, view.TradeFee]).toEqual([charges.margin.toNumber(), charges.fee.toNumber()]);
        }

        if (!c.pending || !c.fill || prior || expected.refusal) return;
        // The market reaches the target: a buy's ask falls to it, a sell's bid rises to it, `fillSlip` bps beyond.
        const spread = dec(pair.ForexQuotations.Ask).minus(pair.ForexQuotations.Bid);
        const slip = dec(target!).times(c.fillSlip).div(10_000);
        const fillBid =
          side === OrderSide.buy
            ? dec(target!).minus(spread).minus(slip).toDecimalPlaces(pair.PricePrecision, Dec.ROUND_DOWN)
            : dec(target!).plus(slip).toDecimalPlaces(pair.PricePrecision, Dec.ROUND_UP);
        await server.tick(seed.code, fillBid.toFixed());
        pair = await pairOf(seed.code);
        const atFill = predictCharges(pair, { side, lots, leverage, price: entryPrice(side, quoteOf(pair)) });
        // The reservation is released first; the fill then opens like a market order.
        const short = orderRefusal({ freeMargin: account.balance, balance: account.balance, charges: atFill, pending: false });
        const filled = await storedOrder((answer.data as OrderView).Id);
        const wallet = await walletOf(server, trader.userId);
        expect(
          { ...filled, balance: cents(dec(wallet.balance)), lock: cents(dec(wallet.lock)) },
          JSON.stringify({ case: c, fill: fillBid.toFixed() }),
        ).toEqual(
          short
            ? {
                ...expected.outcome,
                code: undefined,
                msg: undefined,
                reserved: '0.00',
                status: 3,
                closeReason: 'margin_short',
                lock: '0.00',
              }
            : {
                ...expected.outcome,
                code: undefined,
                msg: undefined,
                margin: atFill.margin.toFixed(6),
                fee: cents(atFill.fee),
                reserved: '0.00',
                status: 1,
                balance: cents(account.balance.minus(atFill.fee)),
                lock: '0.00',
              },
        );
      }),
      settings,
    );
  });

  it('withdrawals: limits, fee, what may leave, the fee charged and the amount received', async () => {
    const db = server.database.db;
    const currencies: Partial<Record<keyof typeof ADDRESSES, WithdrawCurrencyView>> = {};
    const problemFigure: Record<WithdrawalProblem['code'], string> = {
      withdraw_below_min: 'min',
      withdraw_above_max: 'max',
      withdraw_fee_exceeds: 'fee',
      withdraw_exceeds_available: 'available',
    };
    const money = (max: number) => fc.integer({ min: 1, max: max * 100 }).map((units) => dec(units).div(100));
    const withdrawalCase = fc.record({
      protocol: fc.constantFrom<(keyof typeof ADDRESSES)[]>('TRC20', 'ERC20', 'USDC'),
      feeType: fc.constantFrom(1, 2),
      /** A fixed fee in USD, or a rate of the amount (4 decimals, below 20 %). */
      fixedFee: fc.integer({ min: 0, max: 4000 }).map((units) => dec(units).div(100)),
      rateFee: fc.integer({ min: 0, max: 2000 }).map((units) => dec(units).div(10_000)),
      min: fc.oneof(money(5), money(100)),
      span: fc.integer({ min: 0, max: 300_000 }).map((units) => dec(units).div(100)),
      /** Units of the currency one USD buys (8 decimals). */
      usdPrice: fc.integer({ min: 50_000_000, max: 200_000_000 }).map((units) => dec(units).div(100_000_000)),
      /** Enough for any amount within the limits, or a balance of its own (no positions: all of it may leave). */
      balance: fc.oneof(
        fc.constant('plenty' as const),
        fc.integer({ min: 0, max: 500_000 }).map((units) => dec(units).div(100)),
      ),
      /** A named edge, or a point between the limits (per ten thousand of the span, a little beyond either end). */
      amount: fc.oneof(
        fc.constantFrom('min', 'below_min', 'max', 'above_max', 'fee', 'above_fee', 'all', 'above_all'),
        fc.integer({ min: -500, max: 10_500 }),
        fc.integer({ min: -500, max: 10_500 }),
      ),
    });

    await fc.assert(
      fc.asyncProperty(withdrawalCase, async (c) => {
        const currency = (currencies[c.protocol] ??= await server.currency(c.protocol));
        const terms = {
          fee_type: c.feeType,
          draw_rate: (c.feeType === 1 ? c.fixedFee : c.rateFee).toFixed(),
          min_amount: c.min.toFixed(2),
          max_amount: c.min.plus(c.span).toFixed(2),
        };
        await db
          .update(withdrawCurrencies)
          .set({
            feeType: terms.fee_type,
            drawRate: terms.draw_rate,
            minAmount: terms.min_amount,
            maxAmount: terms.max_amount,
            usdPrice: c.usdPrice.toFixed(8),
            usdPriceUpdatedAt: server.clock.now(),
            enabled: true,
          })
          .where(eq(withdrawCurrencies.id, currency.id));
        const balance = c.balance === 'plenty' ? dec(terms.max_amount).plus(1) : c.balance;
        const trader = await server.trader({ balance: balance.toFixed(2) });
        const bound = await server.bind(trader, { type: 1, draw_id: currency.id, dc_address: ADDRESSES[c.protocol] });
        expect(bound.code, bound.msg).toBe(1);
        // The cool-down has its own tests: this method is usable at once.
        await db.update(payoutMethods).set({ usableAt: server.clock.now() }).where(eq(payoutMethods.id, bound.data.id));

        const fee = withdrawalQuote(c.min, { ...terms, usd_price: 1 }).fee;
        const named: Record<string, Dec> = {
          min: c.min,
          below_min: c.min.minus('0.01'),
          max: dec(terms.max_amount),
          above_max: dec(terms.max_amount).plus('0.01'),
          fee: c.feeType === 1 ? c.fixedFee : fee,
          above_fee: (c.feeType === 1 ? c.fixedFee : fee).plus('0.01'),
          all: balance,
          above_all: balance.plus('0.01'),
        };
        const amount =
          typeof c.amount === 'string'
            ? named[c.amount]!
            : c.min.plus(c.span.times(c.amount).div(10_000)).toDecimalPlaces(2, Dec.ROUND_DOWN);
        if (!amount.gt(0)) return;

        const before = await walletOf(server, trader.userId);
        const answer = await server.draw(trader, {
          draw_currency_id: currency.id,
          draw_method_id: bound.data.id,
          number: amount.toFixed(2),
        });
        const withdrawable = withdrawableAmount(balance, 0, balance);
        const problem = withdrawalProblem(amount, terms, withdrawable);
        const quote = withdrawalQuote(amount, { ...terms, usd_price: c.usdPrice });
        const context = JSON.stringify({ case: c, amount: amount.toFixed(2) });
        if (problem) {
          expect({ code: answer.code, msg: answer.msg }, context).toEqual({
            code: 1002,
            msg: translate('en', problem.code, { [problemFigure[problem.code]]: problem.limit.toFixed(2) }),
          });
          expect(await walletOf(server, trader.userId), context).toEqual(before);
          return;
        }
        expect(answer.code, `${context} ${answer.msg}`).toBe(1);
        const view = answer.data;
        expect({ number: view.number, fee: view.fee, real_number: view.real_number, usd_price: view.usd_price }, context).toEqual(
          {
            number: amount.toNumber(),
            fee: quote.fee.toNumber(),
            real_number: quote.received.toNumber(),
            usd_price: c.usdPrice.toFixed(),
          },
        );
        const [stored] = await db.select().from(withdrawals).where(eq(withdrawals.id, view.id));
        expect(
          { amount: cents(dec(stored!.amount)), fee: cents(dec(stored!.fee)), received: cents(dec(stored!.received)) },
          context,
        ).toEqual({
          amount: cents(amount),
          fee: cents(quote.fee),
          received: cents(quote.received),
        });
        expect(dec((await walletOf(server, trader.userId)).lock).equals(amount), context).toBe(true);
      }),
      settings,
    );
  });
});
