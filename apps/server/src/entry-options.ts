import type { CoreDeps } from './context.js';

/**
 * What a program that runs main.ts in a process of its own may choose before it imports it: the
 * multi-process tests (test/processes.ts) choose a price source they drive, the cluster benches
 * (bench/cluster.ts) the simulated feed without the first start's history back-fill. Nothing sets it in
 * production.
 */
export const entryOptions: Pick<CoreDeps, 'marketFeed'> = {};
