import type { Executor } from '../../db/client.js';
import { categories, instruments } from '../../db/schema.js';
import { CATEGORY_SEEDS, INSTRUMENT_SEEDS } from './catalog.js';

/**
 * Idempotent: categories are inserted by slug and instruments by code, and neither is ever overwritten,
 * so an operator's change (a category's names, a spread, a leverage list) survives restarts, and new
 * ones appear on upgrade.
 */
export async function seedMarket(db: Executor) {
  await db
    .insert(categories)
    .values(CATEGORY_SEEDS.map(({ slug, sort, names }) => ({ slug, sort, names })))
    .onConflictDoNothing({ target: categories.slug });
  const categoryIds = new Map(
    (await db.select({ id: categories.id, slug: categories.slug }).from(categories)).map((c) => [c.slug, c.id]),
  );
  await db
    .insert(instruments)
    .values(
      INSTRUMENT_SEEDS.map((seed, position) => ({
        code: seed.code,
        showCode: seed.code,
        name: seed.name,
        logo: seed.logo,
        categoryId: categoryIds.get(seed.category)!,
        baseCurrency: seed.base,
        quoteCurrency: seed.quote,
        pricePrecision: seed.precision,
        lotStep: seed.lotStep,
        minLots: seed.minLots,
        maxLots: seed.maxLots,
        contractSize: seed.contractSize,
        feeRate: seed.feeRate,
        marginMode: seed.marginMode,
        leverages: seed.leverages,
        spread: seed.spread,
        basePrice: seed.basePrice,
        volatility: seed.volatility,
        session: seed.session,
        sort: position + 1,
      })),
    )
    .onConflictDoNothing({ target: instruments.code });
}
