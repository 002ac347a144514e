import {
  conflict,
  dec,
  invalid,
  notFound,
  ZCategoryChange,
  ZCategoryCreate,
  ZInstrumentChange,
  ZCategoryAdminView,
  ZInstrumentAdminView,
  type CategoryAdminView,
  type InstrumentAdminView,
  type InstrumentChange,
} from '@pipwise/domain';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { categories, instruments } from '../../db/schema.js';
import { registerAdminCrud, ZEntryParams } from '../../http/admin-crud.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import { pathId, requireSomeChange } from '../../http/admin-input.js';
import { ok, parse } from '../../http/envelope.js';
import { requireOperator, type OperatorPrincipal } from '../../http/operator.js';
import type { EventBus } from '../../realtime/bus.js';
import type { AuditService } from '../audit/service.js';
import type { MarketEngine } from './service.js';

type InstrumentRow = typeof instruments.$inferSelect;
type CategoryRow = typeof categories.$inferSelect;

const instrumentView = (row: InstrumentRow): InstrumentAdminView => ({
  id: row.id,
  code: row.code,
  show_code: row.showCode,
  name: row.name,
  category_id: row.categoryId,
  price_precision: row.pricePrecision,
  spread: dec(row.spread).toFixed(row.pricePrecision),
  leverages: row.leverages,
  fee_rate: dec(row.feeRate).toFixed(),
  min_lots: dec(row.minLots).toFixed(),
  lot_step: dec(row.lotStep).toFixed(),
  max_lots: dec(row.maxLots).toFixed(),
  contract_size: dec(row.contractSize).toFixed(),
  margin_mode: row.marginMode,
  session: row.session,
  enabled: row.enabled,
  sort: row.sort,
});

const categoryView = (row: CategoryRow): CategoryAdminView => ({ id: row.id, slug: row.slug, sort: row.sort, names: row.names });

/**
 * The operators' side of the market: instruments' trading rules and the categories. Each change is one
 * transaction with its audit row; once committed this process applies it and `market.instrument_changed`
 * (or `market.categories_changed`) makes every other process read it again, without a restart.
 */
export class MarketAdmin {
  constructor(private readonly deps: { db: Db; bus: EventBus; audit: AuditService; engine: MarketEngine }) {}

  async instruments(): Promise<InstrumentAdminView[]> {
    const rows = await this.deps.db.select().from(instruments).orderBy(asc(instruments.sort), asc(instruments.id));
    return rows.map(instrumentView);
  }

  async updateInstrument(id: number, change: InstrumentChange, by: OperatorPrincipal, ip: string): Promise<InstrumentAdminView> {
    const updated = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.select().from(instruments).where(eq(instruments.id, id)).for('update');
      if (!row) throw notFound('instrument_not_found');
      if (change.spread !== undefined && dec(change.spread).decimalPlaces() > row.pricePrecision) {
        throw invalid('instrument_spread_precision', { precision: row.pricePrecision });
      }
      const minLots = change.min_lots ?? row.minLots;
      const maxLots = change.max_lots ?? row.maxLots;
      if (dec(minLots).gt(maxLots))
        throw invalid('instrument_lots_range', { min: dec(minLots).toFixed(), max: dec(maxLots).toFixed() });
      const [after] = await tx
        .update(instruments)
        .set({
          spread: change.spread,
          leverages: change.leverages && [...change.leverages].sort((a, b) => a - b),
          feeRate: change.fee_rate,
          minLots: change.min_lots,
          lotStep: change.lot_step,
          maxLots: change.max_lots,
          enabled: change.enabled,
          sort: change.sort,
          name: change.name,
        })
        .where(eq(instruments.id, id))
        .returning();
      const view = instrumentView(after!);
      await this.deps.audit.record(
        { by, action: 'instrument.update', targetType: 'instrument', targetId: id, before: instrumentView(row), after: view, ip },
        tx,
      );
      return view;
    });
    await this.deps.engine.reloadInstrument(id);
    this.deps.bus.publish('market.instrument_changed', { id });
    return updated;
  }

  async categories() {
    const rows = await this.deps.db.select().from(categories).orderBy(asc(categories.sort), asc(categories.id));
    return rows.map(categoryView);
  }

  async createCategory(input: z.infer<typeof ZCategoryCreate>, by: OperatorPrincipal, ip: string): Promise<CategoryAdminView> {
    const created = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.insert(categories).values(input).onConflictDoNothing({ target: categories.slug }).returning();
      if (!row) throw conflict('category_slug_taken', { slug: input.slug });
      const view = categoryView(row);
      await this.deps.audit.record(
        { by, action: 'category.create', targetType: 'category', targetId: row.id, after: view, ip },
        tx,
      );
      return view;
    });
    await this.categoriesChanged();
    return created;
  }

  async updateCategory(
    id: number,
    change: z.infer<typeof ZCategoryChange>,
    by: OperatorPrincipal,
    ip: string,
  ): Promise<CategoryAdminView> {
    const updated = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.select().from(categories).where(eq(categories.id, id)).for('update');
      if (!row) throw notFound('category_not_found');
      if (change.slug !== undefined && change.slug !== row.slug) {
        const [taken] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.slug, change.slug));
        if (taken) throw conflict('category_slug_taken', { slug: change.slug });
      }
      const [after] = await tx.update(categories).set(change).where(eq(categories.id, id)).returning();
      const view = categoryView(after!);
      await this.deps.audit.record(
        { by, action: 'category.update', targetType: 'category', targetId: id, before: categoryView(row), after: view, ip },
        tx,
      );
      return view;
    });
    await this.categoriesChanged();
    return updated;
  }

  private async categoriesChanged() {
    await this.deps.engine.reloadCategories();
    this.deps.bus.publish('market.categories_changed', {});
  }
}

export function registerMarketAdminRoutes(instance: FastifyInstance, admin: MarketAdmin) {
  const app = instance.withTypeProvider<DocumentedTypeProvider>();
  app.get('/admin/api/instruments', { schema: { response: answers(z.array(ZInstrumentAdminView)) } }, async (request) => {
    requireOperator(request);
    return ok(request, await admin.instruments());
  });

  const change = { params: ZEntryParams, body: ZInstrumentChange, response: answers(ZInstrumentAdminView) };
  app.put('/admin/api/instruments/:id', { schema: change }, async (request) => {
    const operator = requireOperator(request);
    const id = pathId(request.params, 'instrument_not_found');
    const change = requireSomeChange(parse(ZInstrumentChange, request.body));
    return ok(request, await admin.updateInstrument(id, change, operator, request.ip));
  });

  registerAdminCrud(
    instance,
    '/admin/api/categories',
    'content',
    {
      create: ZCategoryCreate,
      change: ZCategoryChange,
      row: ZCategoryAdminView,
      list: z.array(ZCategoryAdminView),
      notFoundKey: 'category_not_found',
    },
    {
      list: () => admin.categories(),
      create: (input, by, ip) => admin.createCategory(input, by, ip),
      update: (id, change, by, ip) => admin.updateCategory(id, change, by, ip),
    },
  );
}
