import type { CashierTypeValue } from '@pipwise/domain';

/**
 * The cashier's query keys, apart from its queries: the live socket refetches the records on every screen,
 * and importing the queries for their keys would put the cashier's code in the first screen's load.
 */
export const depositKeys = {
  all: ['deposits'] as const,
  coinChannels: () => [...depositKeys.all, 'coin-channels'] as const,
  symbols: () => [...depositKeys.all, 'symbols'] as const,
  wireChannels: () => [...depositKeys.all, 'wire-channels'] as const,
  records: () => [...depositKeys.all, 'records'] as const,
  recordList: (type: CashierTypeValue | undefined) => [...depositKeys.records(), type ?? 'all'] as const,
};

export const withdrawKeys = {
  all: ['withdraw'] as const,
  currencies: (type: CashierTypeValue) => [...withdrawKeys.all, 'currencies', type] as const,
  methods: () => [...withdrawKeys.all, 'methods'] as const,
  methodsOf: (type: CashierTypeValue) => [...withdrawKeys.methods(), type] as const,
  rules: () => [...withdrawKeys.all, 'rules'] as const,
  records: () => [...withdrawKeys.all, 'records'] as const,
};
