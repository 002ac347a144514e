import type { DepositView } from '@pipwise/domain';

/**
 * What a deposit row shows: the amount credited once there is one (an operator may credit what actually
 * arrived), else the amount declared; and the declared amount beside it only when the two differ.
 */
export function depositAmounts(record: Pick<DepositView, 'number' | 'credited_number'>): {
  shown: number;
  declared: number | null;
} {
  if (record.credited_number === null) return { shown: record.number, declared: null };
  return { shown: record.credited_number, declared: record.credited_number === record.number ? null : record.number };
}
