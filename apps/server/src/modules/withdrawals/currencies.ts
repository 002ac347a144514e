import {
  CashierType,
  dec,
  invalid,
  RATE_FEE_TYPE,
  ZCurrencyChange,
  ZCurrencyCreate,
  ZWithdrawCurrencyAdminListView,
  ZWithdrawCurrencyAdminView,
  type CurrencyFields,
  type WithdrawCurrencyAdminListView as CurrencyListView,
  type WithdrawCurrencyAdminView as CurrencyView,
} from '@pipwise/domain';
import { asc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { CoreDeps, Module } from '../../context.js';
import { AuditedRows } from '../../db/audited-rows.js';
import type { Db } from '../../db/client.js';
import { withdrawCurrencies } from '../../db/schema.js';
import { registerAdminCrud } from '../../http/admin-crud.js';
import { definedFields } from '../../http/admin-input.js';
import type { OperatorPrincipal } from '../../http/operator.js';
import type { AuditService } from '../audit/service.js';
import type { WithdrawRates } from './rates.js';

type CurrencyRow = typeof withdrawCurrencies.$inferSelect;

/** The answer to an id that names no currency, whether the path cannot be one or the row is gone. */
const NOT_FOUND = 'currency_not_found';

const currencyView = (row: CurrencyRow): CurrencyView => ({
  id: row.id,
  type: row.type,
  code: row.code,
  protocol: row.protocol,
  fee_type: row.feeType,
  draw_rate: dec(row.drawRate).toFixed(),
  usd_price: dec(row.usdPrice).toFixed(),
  usd_price_updated_at: row.usdPriceUpdatedAt.toISOString(),
  min_amount: row.minAmount,
  max_amount: row.maxAmount,
  enabled: row.enabled,
  sort: row.sort,
});

/**
 * A currency users can be paid in: a coin names its protocol (addresses are checked against it), a rate
 * fee is a fraction below 1 (a fee of the whole amount would pay nothing out), and the limits are in order.
 */
function checkCurrency(currency: CurrencyFields) {
  if (currency.type === CashierType.coin && currency.protocol === '') throw invalid('currency_protocol_invalid');
  if (currency.fee_type === RATE_FEE_TYPE && dec(currency.draw_rate).gte(1)) throw invalid('currency_draw_rate_invalid');
  if (dec(currency.min_amount).gt(currency.max_amount)) throw invalid('currency_amount_range');
}

const columnsOf = (fields: CurrencyFields) => ({
  type: fields.type,
  code: fields.code,
  protocol: fields.protocol,
  feeType: fields.fee_type,
  drawRate: fields.draw_rate,
  usdPrice: fields.usd_price,
  minAmount: fields.min_amount,
  maxAmount: fields.max_amount,
  enabled: fields.enabled,
  sort: fields.sort,
});

/**
 * The finance team's withdraw currencies. Users' lists and new withdrawals read the table on every
 * request, so a change (a fee, a limit, a currency switched off) applies at once in every process;
 * withdrawals already made keep the terms they were made with.
 */
export class WithdrawCurrenciesAdmin {
  private readonly rows: AuditedRows<typeof withdrawCurrencies, CurrencyView>;

  constructor(private readonly deps: { db: Db; audit: AuditService; rates: WithdrawRates; clock: Clock }) {
    this.rows = new AuditedRows(deps, {
      table: withdrawCurrencies,
      view: currencyView,
      target: 'withdraw_currency',
      notFoundKey: NOT_FOUND,
    });
  }

  async list(): Promise<CurrencyListView[]> {
    const rows = await this.rows.all(asc(withdrawCurrencies.type), asc(withdrawCurrencies.sort), asc(withdrawCurrencies.id));
    return Promise.all(
      rows.map(async (row) => {
        const rate = await this.deps.rates.current(row);
        return {
          ...currencyView(row),
          rate_source: rate.source,
          rate_pair: rate.pair,
          rate: rate.usdPrice,
          rate_at: rate.at.toISOString(),
          rate_expires_at: rate.expiresAt?.toISOString() ?? null,
        };
      }),
    );
  }

  async create(input: z.infer<typeof ZCurrencyCreate>, by: OperatorPrincipal, ip: string): Promise<CurrencyView> {
    const currency = { protocol: '', enabled: true, sort: 0, ...definedFields(input) } as CurrencyFields;
    checkCurrency(currency);
    return this.rows.create({ ...columnsOf(currency), usdPriceUpdatedAt: this.deps.clock.now() }, by, ip);
  }

  async update(id: number, change: z.infer<typeof ZCurrencyChange>, by: OperatorPrincipal, ip: string): Promise<CurrencyView> {
    return this.rows.update(
      id,
      (row, { id: _id, usd_price_updated_at: _at, ...current }) => {
        const { confirm_rate, ...fields } = change;
        const currency = { ...current, ...definedFields(fields) } as CurrencyFields;
        checkCurrency(currency);
        // A new rate, or the same one confirmed, is valid for withdraw_rate_max_age_hours from now; saving other
        // fields (an inline switch sends the whole row) leaves its age alone.
        const renewed = confirm_rate === true || !dec(currency.usd_price).eq(row.usdPrice);
        const confirmed = renewed ? { usdPriceUpdatedAt: this.deps.clock.now() } : {};
        return { ...columnsOf(currency), ...confirmed };
      },
      by,
      ip,
    );
  }
}

/** The currency routes as a module of their own beside withdrawals (the review queue's routes are withdrawals'). */
export function createWithdrawCurrenciesModule(deps: CoreDeps, services: { audit: AuditService; rates: WithdrawRates }): Module {
  const admin = new WithdrawCurrenciesAdmin({ db: deps.database.db, clock: deps.clock, ...services });
  return {
    name: 'withdraw-currencies',
    routes: (app: FastifyInstance) => {
      registerAdminCrud(
        app,
        '/admin/api/withdraw-currencies',
        'finance',
        {
          create: ZCurrencyCreate,
          change: ZCurrencyChange,
          row: ZWithdrawCurrencyAdminView,
          list: z.array(ZWithdrawCurrencyAdminListView),
          notFoundKey: NOT_FOUND,
        },
        admin,
      );
    },
  };
}
