import { dec, type DecimalInput } from '@pipwise/domain';
import { Alert, Button, Empty } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api';

/** The error state of a page or table: the envelope's message (already in the operator's language) and a retry. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      title={errorText(error, t('server_error'))}
      action={
        onRetry ? (
          <Button size="small" onClick={onRetry}>
            {t('retry')}
          </Button>
        ) : undefined
      }
    />
  );
}

/** What an operator reads for a refusal: the server's own msg when there is one. */
export const errorText = (error: unknown, fallback: string): string =>
  error instanceof ApiError || error instanceof Error ? error.message || fallback : fallback;

/** The empty state of tables, in the operator's language rather than antd's. */
export function EmptyState({ description }: { description?: ReactNode }) {
  const { t } = useTranslation();
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={description ?? t('empty')} />;
}

const GROUPING = /\B(?=(\d{3})+(?!\d))/g;

/**
 * Money and quantities as text with a fixed number of decimals and thousands separators. The JSON
 * number is read through its shortest text (the literal the server wrote), so no float arithmetic.
 */
export function formatDecimal(value: DecimalInput | null | undefined, decimals = 2): string {
  if (value === null || value === undefined || value === '') return '—';
  const [whole = '', fraction] = dec(typeof value === 'number' ? String(value) : value)
    .toFixed(decimals)
    .split('.');
  const grouped = whole.replace(GROUPING, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** Sign of a decimal without converting it to a float. */
export const signOf = (value: DecimalInput | null | undefined): -1 | 0 | 1 =>
  value === null || value === undefined
    ? 0
    : (dec(typeof value === 'number' ? String(value) : value).comparedTo(0) as -1 | 0 | 1);

/** Fixed-width digits so polled figures do not shift the layout as they change. */
export const TABULAR = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;

/** Colour of a profit or loss figure. */
export const pnlColor = (value: DecimalInput | null | undefined) => {
  const sign = signOf(value);
  return sign > 0 ? '#389e0d' : sign < 0 ? '#cf1322' : undefined;
};

/** A date-time from the API (ISO 8601) in the operator's locale. */
export const formatDateTime = (value: string | null | undefined) => (value ? new Date(value).toLocaleString() : '—');

/** Lists answer either a bare array or a page; both read as rows. */
export const rowsOf = <T,>(data: T[] | { data: T[] } | undefined): T[] => (Array.isArray(data) ? data : (data?.data ?? []));
