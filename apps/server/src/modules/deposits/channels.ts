import {
  CashierType,
  dec,
  invalid,
  ZChannelChange,
  ZChannelCreate,
  ZDepositChannelView,
  type ChannelFields,
  type DepositChannelView as ChannelView,
} from '@pipwise/domain';
import { asc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { CoreDeps, Module } from '../../context.js';
import { AuditedRows } from '../../db/audited-rows.js';
import type { Db } from '../../db/client.js';
import { depositChannels } from '../../db/schema.js';
import { registerAdminCrud } from '../../http/admin-crud.js';
import { definedFields } from '../../http/admin-input.js';
import type { OperatorPrincipal } from '../../http/operator.js';
import type { AuditService } from '../audit/service.js';
import { coinAddress } from '../../cashier/destinations.js';

type ChannelRow = typeof depositChannels.$inferSelect;

/** The answer to an id that names no channel, whether the path cannot be one or the row is gone. */
const NOT_FOUND = 'channel_not_found';

const channelView = (row: ChannelRow): ChannelView => ({
  id: row.id,
  type: row.type,
  currency_code: row.currencyCode,
  protocol_code: row.protocolCode,
  address: row.address,
  bank_name: row.bankName,
  bank_address: row.bankAddress,
  bank_swift: row.bankSwift,
  payee_name: row.payeeName,
  payee_account: row.payeeAccount,
  bank_remark: row.bankRemark,
  min_amount: row.minAmount,
  max_amount: row.maxAmount,
  enabled: row.enabled,
  sort: row.sort,
});

/**
 * What a user is shown must be payable: a coin channel an address valid for its protocol, a bank channel
 * a bank and a payee; and the limits in order. Checked on the channel as it will be stored.
 */
function checkChannel(channel: ChannelFields) {
  if (channel.type === CashierType.coin) {
    if (channel.protocol_code === '') throw invalid('channel_protocol_invalid');
    coinAddress(channel.protocol_code, channel.address);
  } else if (channel.bank_name === '' || channel.payee_name === '' || channel.payee_account === '') {
    throw invalid('channel_bank_incomplete');
  }
  if (dec(channel.min_amount).gt(channel.max_amount)) throw invalid('channel_amount_range');
}

const columnsOf = (fields: ChannelFields) => ({
  type: fields.type,
  currencyCode: fields.currency_code,
  protocolCode: fields.protocol_code,
  address: fields.address,
  bankName: fields.bank_name,
  bankAddress: fields.bank_address,
  bankSwift: fields.bank_swift,
  payeeName: fields.payee_name,
  payeeAccount: fields.payee_account,
  bankRemark: fields.bank_remark,
  minAmount: fields.min_amount,
  maxAmount: fields.max_amount,
  enabled: fields.enabled,
  sort: fields.sort,
});

const BLANK_CHANNEL = {
  protocol_code: '',
  address: '',
  bank_name: '',
  bank_address: '',
  bank_swift: '',
  payee_name: '',
  payee_account: '',
  bank_remark: '',
  enabled: true,
  sort: 0,
};

/**
 * The finance team's deposit channels. Users' channel lists read the table on every request, so a
 * change shows at once in every process; deposits keep the channel as it was when they were made.
 */
export class DepositChannelsAdmin {
  private readonly rows: AuditedRows<typeof depositChannels, ChannelView>;

  constructor(deps: { db: Db; audit: AuditService }) {
    this.rows = new AuditedRows(deps, {
      table: depositChannels,
      view: channelView,
      target: 'deposit_channel',
      notFoundKey: NOT_FOUND,
    });
  }

  async list(): Promise<ChannelView[]> {
    const rows = await this.rows.all(asc(depositChannels.type), asc(depositChannels.sort), asc(depositChannels.id));
    return rows.map(channelView);
  }

  async create(input: z.infer<typeof ZChannelCreate>, by: OperatorPrincipal, ip: string): Promise<ChannelView> {
    const channel: ChannelFields = { ...BLANK_CHANNEL, ...definedFields(input) } as ChannelFields;
    checkChannel(channel);
    return this.rows.create(columnsOf(channel), by, ip);
  }

  async update(id: number, change: z.infer<typeof ZChannelChange>, by: OperatorPrincipal, ip: string): Promise<ChannelView> {
    return this.rows.update(
      id,
      (_row, { id: _id, ...current }) => {
        const channel = { ...current, ...definedFields(change) } as ChannelFields;
        checkChannel(channel);
        return columnsOf(channel);
      },
      by,
      ip,
    );
  }
}

/** The channel routes as a module of their own beside deposits (the review queue's routes are deposits'). */
export function createDepositChannelsModule(deps: CoreDeps, services: { audit: AuditService }): Module {
  const admin = new DepositChannelsAdmin({ db: deps.database.db, audit: services.audit });
  return {
    name: 'deposit-channels',
    routes: (app: FastifyInstance) => {
      registerAdminCrud(
        app,
        '/admin/api/deposit-channels',
        'finance',
        {
          create: ZChannelCreate,
          change: ZChannelChange,
          row: ZDepositChannelView,
          list: z.array(ZDepositChannelView),
          notFoundKey: NOT_FOUND,
        },
        admin,
      );
    },
  };
}
