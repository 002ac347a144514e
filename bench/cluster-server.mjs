/**
 * `npm start`'s server (apps/server/build/main.js, unchanged) with the simulated feed but without the
 * first start's chart back-fill, which is minutes long on an empty database and irrelevant to what the
 * cluster benches measure. Started by bench/cluster.ts (`builtServer`) with ROLE and the shared settings.
 */
import { entryOptions } from '../apps/server/build/entry-options.js';

entryOptions.marketFeed = { source: 'simulated', backfill: false };
await import('../apps/server/build/main.js');
